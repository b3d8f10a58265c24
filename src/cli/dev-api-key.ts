// Prints a fresh live API key (and nothing else on stdout) for a development workspace with external API access,
// creating the workspace, its owner and the business plan as needed, for the platform started by `make run`.
//   npm run --silent dev-api-key -- --scopes crm_leads:read,crm_leads:write
//   npm run --silent dev-api-key -- --preset "CRM sales full" [--workspace "Development"] [--environment test]
//                                   [--owner <account uuid>] [--name "curl"]
import { parseArgs } from 'node:util';
import pg from 'pg';
import { issueApiKey, resolveScopes } from '../partner/api-keys/service.js';
import { keyEnvironments, type KeyEnvironment } from '../partner/api-keys/secret.js';
import { inTransaction } from '../platform/db/sql.js';
import { AppError } from '../platform/http/app-error.js';
import { isUuid } from '../platform/ids.js';
import { devOwner, devWorkspace, lockDevTools } from './dev-workspace.js';
import { forgetGateKeys } from './forget-gate-keys.js';
import { platformUrls } from './platform-urls.js';
import { upgradeToBusiness } from './queries.js';

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

const { databaseUrl, redisUrl } = platformUrls();
if (!databaseUrl) fail('no DATABASE_URL and no runtime file in DATA_DIR; start the platform with `make run` first');
if (!keyEnvironments.includes(values.environment as KeyEnvironment)) fail(`--environment must be one of ${keyEnvironments.join(', ')}`);
if (values.owner !== undefined && !isUuid(values.owner)) fail('--owner must be an account uuid');

let scopes: string[];
try {
  scopes = resolveScopes({
    scopes: values.scopes
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    preset: values.preset,
  });
} catch (err) {
  fail(err instanceof AppError ? err.message.replace('body.', '--') : String(err));
}

// One connection: the whole run is one transaction.
const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
try {
  const { issued, upgraded } = await inTransaction(pool, async (db) => {
    // One workspace per name, owned by the given account or by a development owner account.
    await lockDevTools(db);
    const owner = await devOwner(db, values.owner);
    if (!owner) fail(`--owner ${values.owner} is not a registered account`);
    const { id: workspaceId, created } = await devWorkspace(db, values.workspace!, owner, 'business');
    const upgraded = !created && (await upgradeToBusiness(db, workspaceId));
    const issued = await issueApiKey(db, {
      workspaceId,
      name: values.name!,
      scopes,
      environment: values.environment as KeyEnvironment,
      createdBy: null,
    });
    return { issued, upgraded };
  });
  if (upgraded) await forgetGateKeys(redisUrl, 'dev-api-key');
  process.stdout.write(`${issued.key}\n`);
} catch (err) {
  fail(err instanceof AppError ? err.message : String((err as Error)?.stack ?? err));
} finally {
  await pool.end();
}
