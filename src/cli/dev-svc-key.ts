// Prints a fresh workspace API key (svc_…, and nothing else on stdout) for a development workspace, creating the
// workspace and its owner as needed, for the platform started by `make run`.
//   npm run --silent dev-svc-key -- --scopes crm.leads.read,crm.leads.create
//   npm run --silent dev-svc-key -- --scopes read-write [--plan free|pro|business|enterprise] [--workspace NAME]
//        [--env live|test] [--ip-allow CIDR,...] [--expires ISO] [--owner <account uuid>] [--name "curl"]
//        [--rate-per-hour N --rate-per-minute N (enterprise contract limits)]
// Without --plan an existing workspace keeps its plan and a new one starts on free.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { inTransaction } from '../platform/db/sql.js';
import { AppError } from '../platform/http/app-error.js';
import { isUuid } from '../platform/ids.js';
import { checkAllowList, checkScopes, issueSvcKey } from '../workspace/keys/service.js';
import { keyEnvironments, type KeyEnvironment } from '../workspace/base/key-secret.js';
import { isSvcPlan, svcPlans } from '../workspace/base/plans.js';
import { devOwner, devWorkspace, lockDevTools } from './dev-workspace.js';
import { forgetGateKeys } from './forget-gate-keys.js';
import { platformUrls } from './platform-urls.js';
import { updateWorkspace } from './queries.js';

function fail(message: string): never {
  process.stderr.write(`dev-svc-key: ${message}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      scopes: { type: 'string' },
      plan: { type: 'string' },
      workspace: { type: 'string', default: 'Development' },
      env: { type: 'string', default: 'live' },
      'ip-allow': { type: 'string' },
      expires: { type: 'string' },
      owner: { type: 'string' },
      name: { type: 'string', default: 'Development key' },
      'rate-per-hour': { type: 'string' },
      'rate-per-minute': { type: 'string' },
    },
  }));
} catch (err) {
  fail((err as Error).message);
}

const message = (err: unknown) =>
  err instanceof AppError ? err.message.replace(/body\.(\w+)/, '--$1') : String((err as Error)?.stack ?? err);
const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const positive = (flag: string, raw: string | undefined) => {
  if (raw === undefined) return null;
  // The contract columns are PostgreSQL integers.
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2_147_483_647)
    fail(`--${flag} must be a whole number from 1 to 2147483647`);
  return Number(raw);
};

const { databaseUrl, redisUrl } = platformUrls();
if (!databaseUrl) fail('no DATABASE_URL and no runtime file in DATA_DIR; start the platform with `make run` first');
if (values.scopes === undefined) fail('--scopes is required, e.g. --scopes crm.leads.read,crm.leads.create (see GET /api/v1/scopes)');
if (values.plan !== undefined && !isSvcPlan(values.plan)) fail(`--plan must be one of ${svcPlans.join(', ')}`);
if (!keyEnvironments.includes(values.env as KeyEnvironment)) fail(`--env must be one of ${keyEnvironments.join(', ')}`);
if (values.owner !== undefined && !isUuid(values.owner)) fail('--owner must be an account uuid');
let expiresAt: Date | null = null;
if (values.expires !== undefined) {
  expiresAt = new Date(values.expires);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(values.expires) || Number.isNaN(expiresAt.getTime()))
    fail('--expires must be an ISO 8601 instant, e.g. 2027-01-01T00:00:00Z');
}
const perHour = positive('rate-per-hour', values['rate-per-hour']);
const perMinute = positive('rate-per-minute', values['rate-per-minute']);
let scopes: string[];
let ipAllowList: string[];
try {
  scopes = checkScopes(list(values.scopes));
  ipAllowList = checkAllowList(list(values['ip-allow']));
} catch (err) {
  fail(message(err).replace('--ip_allow_list', '--ip-allow'));
}

// One connection: the whole run is one transaction.
const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
try {
  const issued = await inTransaction(pool, async (db) => {
    await lockDevTools(db);
    const owner = await devOwner(db, values.owner);
    if (!owner) throw new Error(`--owner ${values.owner} is not a registered account`);
    const { id: workspaceId } = await devWorkspace(db, values.workspace!, owner, 'free');
    if (values.plan !== undefined) await updateWorkspace(db, workspaceId, { svc_plan: values.plan });
    if (perHour !== null) await updateWorkspace(db, workspaceId, { svc_rate_per_hour: perHour });
    if (perMinute !== null) await updateWorkspace(db, workspaceId, { svc_rate_per_minute: perMinute });
    return issueSvcKey(db, {
      workspaceId,
      name: values.name!,
      scopes,
      ipAllowList,
      environment: values.env as KeyEnvironment,
      expiresAt,
      createdBy: null,
    });
  });
  if (values.plan !== undefined || perHour !== null || perMinute !== null) await forgetGateKeys(redisUrl, 'dev-svc-key');
  process.stdout.write(`${issued.key}\n`);
} catch (err) {
  await pool.end().catch(() => undefined);
  fail(message(err).replace('--ip_allow_list', '--ip-allow').replace('--expires_at', '--expires'));
}
await pool.end();
