// Prints a fresh live API key (and nothing else on stdout) for a development workspace with external API access,
// creating the workspace, its owner and the business plan as needed, for the platform started by `make run`.
//   npm run --silent dev-api-key -- --scopes crm_leads:read,crm_leads:write
//   npm run --silent dev-api-key -- --preset "CRM sales full" [--workspace "Development"] [--environment test]
//                                   [--owner <account uuid>] [--name "curl"]
import { parseArgs } from 'node:util';
import pg from 'pg';
import { issueApiKey, resolveScopes } from '../partner/api-keys/service.js';
import { keyEnvironments, type KeyEnvironment } from '../partner/api-keys/secret.js';
import { AppError } from '../platform/http/app-error.js';
import { isUuid, newId } from '../platform/ids.js';
import { platformUrls } from './platform-urls.js';

function fail(message: string): never {
  process.stderr.write(`dev-api-key: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    scopes: { type: 'string' },
    preset: { type: 'string' },
    workspace: { type: 'string', default: 'Development' },
    environment: { type: 'string', default: 'live' },
    owner: { type: 'string' },
    name: { type: 'string', default: 'Development key' },
  },
});

const { databaseUrl } = platformUrls();
if (!databaseUrl) fail('no DATABASE_URL and no runtime file in DATA_DIR; start the platform with `make run` first');
if (!keyEnvironments.includes(values.environment as KeyEnvironment)) fail(`--environment must be one of ${keyEnvironments.join(', ')}`);
if (values.owner !== undefined && !isUuid(values.owner)) fail('--owner must be an account uuid');

let scopes: string[];
try {
  scopes = resolveScopes({ scopes: values.scopes?.split(',').map((s) => s.trim()).filter(Boolean), preset: values.preset });
} catch (err) {
  fail(err instanceof AppError ? err.message.replace('body.', '--') : String(err));
}

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
try {
  await db.query('begin');
  // One workspace per name, owned by the given account or by a development owner account.
  await db.query("select pg_advisory_xact_lock(hashtext('dev-api-key'))");
  let owner = values.owner;
  if (!owner) {
    await db.query("insert into modules (code, name) values ('dev', 'Development') on conflict do nothing");
    const existing = await db.query<{ id: string }>("select id from accounts where module_code = 'dev' and customer_account_id = 'dev' and display_name = 'Development workspace owner' limit 1");
    owner = existing.rows[0]?.id ?? newId();
    await db.query(
      `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status)
       values ($1, 'dev', 'dev', 'Development workspace owner', 'USER', 'ACTIVE') on conflict (id) do nothing`,
      [owner],
    );
  } else if ((await db.query('select 1 from accounts where id = $1', [owner])).rowCount === 0) {
    fail(`--owner ${owner} is not a registered account`);
  }
  const found = await db.query<{ id: string }>('select id from workspaces where name = $1 and owner_id = $2 order by created_at limit 1', [values.workspace, owner]);
  let workspaceId = found.rows[0]?.id;
  if (!workspaceId) {
    workspaceId = newId();
    await db.query("insert into workspaces (id, name, plan, owner_id) values ($1, $2, 'business', $3)", [workspaceId, values.workspace, owner]);
    await db.query("insert into workspace_members (workspace_id, account_id, role) values ($1, $2, 'owner')", [workspaceId, owner]);
  } else {
    await db.query("update workspaces set plan = 'business' where id = $1 and plan <> 'business'", [workspaceId]);
  }
  const issued = await issueApiKey(db, { workspaceId, name: values.name!, scopes, environment: values.environment as KeyEnvironment, createdBy: null });
  await db.query('commit');
  process.stdout.write(`${issued.key}\n`);
} catch (err) {
  await db.query('rollback').catch(() => undefined);
  fail(err instanceof AppError ? err.message : String((err as Error)?.stack ?? err));
} finally {
  await db.end();
}
