// Prints a development JWT (and nothing else on stdout) for the platform started by `make run`.
//   npm run --silent dev-token -- --platform-admin
//   npm run --silent dev-token -- --account <uuid> [--name "Ada"] [--module dev] [--customer dev] [--ttl 43200]
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import pg from 'pg';
import { verifyKeyInvalidationChannel } from '../core/auth/verify-key-cache.js';
import { runtimeFile } from '../platform/infra/index.js';
import { platformUrls } from './platform-urls.js';
import { publishOnce } from './publish-once.js';
import { isUuid, newId } from '../platform/ids.js';
import { loadOrCreateDevKey, registerDevKey } from './dev-signing-key.js';
import { ensureAccount, oldestAccountNamed } from './queries.js';

function fail(message: string): never {
  process.stderr.write(`dev-token: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    'platform-admin': { type: 'boolean', default: false },
    account: { type: 'string' },
    name: { type: 'string' },
    module: { type: 'string', default: 'dev' },
    customer: { type: 'string', default: 'dev' },
    ttl: { type: 'string', default: '43200' },
  },
});

const { dataDir, databaseUrl, redisUrl } = platformUrls();
if (!databaseUrl) fail(`no DATABASE_URL and no ${runtimeFile(dataDir)}; start the platform with \`make run\` first`);

const admin = values['platform-admin'] === true;
const platformModule = process.env.PLATFORM_MODULE ?? 'platform';
const moduleCode = admin ? platformModule : values.module!;
const customer = values.customer!;
const ttl = Number(values.ttl);
if (!Number.isInteger(ttl) || ttl < 60) fail('--ttl must be a whole number of seconds, at least 60');
if (!admin && !values.account) fail('give --platform-admin or --account <uuid>');
if (values.account && !isUuid(values.account)) fail('--account must be a uuid');

const key = await loadOrCreateDevKey(dataDir);
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
try {
  const added = await registerDevKey(db, key, moduleCode, customer);
  if (added && redisUrl) {
    // Other nodes may have cached "no keys" for this customer.
    await publishOnce(redisUrl, verifyKeyInvalidationChannel, `${moduleCode}\n${customer}`, 'dev-token').catch(() => undefined);
  }
  let accountId = values.account;
  if (admin && !accountId) {
    const existing = await oldestAccountNamed(db, moduleCode, customer, 'Platform admin');
    accountId = existing ?? newId();
  }
  const displayName = values.name ?? (admin ? 'Platform admin' : `Dev user ${accountId!.slice(0, 8)}`);
  const row = await ensureAccount(db, { id: accountId!, moduleCode, customer, displayName });
  if (row.module_code !== moduleCode || row.customer_account_id !== customer) {
    fail(
      `account ${accountId} belongs to module ${row.module_code}, customer ${row.customer_account_id}; pass --module/--customer to match`,
    );
  }
  const jwt = await new SignJWT({ cid: customer, ...(admin ? { pa: true } : {}) })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
    .setIssuer(moduleCode)
    .setSubject(accountId!)
    .setAudience(process.env.JWT_AUDIENCE ?? 'chat')
    .setIssuedAt()
    .setExpirationTime(`${ttl}s`)
    .sign(key.privateKey);
  process.stdout.write(`${jwt}\n`);
} finally {
  await db.end();
}
