// Starts the platform in-process against the test run's PostgreSQL and Redis, on a free port, and mints
// tokens for accounts it registers, so tests talk to the real HTTP listener.
import { randomUUID } from 'node:crypto';
import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/platform/config/index.js';
import { systemClock, type Clock } from '../../src/platform/clock.js';
import { createLogger, type Logger } from '../../src/platform/logger.js';
import { startPlatform, type Platform } from '../../src/app/runtime.js';
import { newId } from '../../src/platform/ids.js';
import { cloneTemplateDatabase, dropDatabaseWhenIdle, templateDatabaseVariable } from './test-infra.js';

export interface TestPlatform extends Platform {
  chatUrl: string;
  /** Base URL of the partner listener; empty when SERVICES leaves it out. */
  partnerUrl: string;
  /** Base URL of the workspace listener; empty when SERVICES leaves it out. */
  workspaceUrl: string;
  db: pg.Pool;
  /** The configuration the platform was started with. */
  config: Config;
  /** A fresh module + customer with its own signing key; accounts made by it share them. */
  tenant(options?: { moduleCode?: string; customer?: string }): Promise<TestTenant>;
  /** A platform administrator token. */
  adminToken(): Promise<string>;
}

export interface TestAccount {
  id: string;
  token: string;
}

export interface TestTenant {
  moduleCode: string;
  customer: string;
  kid: string;
  privateKey: CryptoKey;
  account(options?: { displayName?: string; status?: 'ACTIVE' | 'DEACTIVATED' | 'BANNED' }): Promise<TestAccount>;
  sign(claims: Record<string, unknown>, options?: SignOptions): Promise<string>;
}

export interface SignOptions {
  /** A relative time ('1h', '-10m') or epoch seconds; null leaves exp out. Default '1h'. */
  expiresIn?: string | number | null;
  audience?: string;
  subject?: string;
  issuer?: string;
  kid?: string;
  /** Signs with another ES256 key than the tenant's registered one. */
  privateKey?: CryptoKey;
}

/** A fresh ES256 key pair with its public half as SPKI PEM, as POST .../keys expects it. */
export async function generateSigningKey(): Promise<{ privateKey: CryptoKey; publicKeyPem: string }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, publicKeyPem: await exportSPKI(publicKey) };
}

/**
 * A Redis logical database that no other isolatedInfra() of this server uses: numbered by a counter in database 0,
 * emptied before use. The numbers wrap after as many as the server has databases (16 on a file's own server).
 */
async function freshRedisDb(redisBase: string): Promise<number> {
  const redis = new Redis(redisBase, { maxRetriesPerRequest: 1 });
  try {
    const counted = await redis.incr('test:isolated-redis-databases');
    const reply = (await redis.config('GET', 'databases')) as string[];
    const databases = Number(reply[1] ?? 16);
    const db = ((counted - 1) % (databases - 1)) + 1;
    await redis.select(db);
    await redis.flushdb();
    return db;
  } finally {
    redis.disconnect();
  }
}

/**
 * One more database and Redis logical database, beside the ones the test runner already gives every file
 * (test/support/runner/file-infra.mjs): for a file that runs two platforms which must not see each other's
 * queue jobs and outbox rows. The database is a clone of the run's migrated template. Redis pub/sub channels are
 * server-wide, not per database: such platforms share the file's redis-server for those.
 */
export async function isolatedInfra(): Promise<{ databaseUrl: string; redisUrl: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  const redisBase = process.env.TEST_REDIS_URL;
  const template = process.env[templateDatabaseVariable];
  if (!base || !redisBase || !template) throw new Error('TEST_DATABASE_URL, TEST_REDIS_URL and the template are set by the jest setup');
  const database = await cloneTemplateDatabase(base, template, 'iso');
  const redisUrl = new URL(redisBase);
  redisUrl.pathname = `/${await freshRedisDb(redisBase)}`;
  return {
    databaseUrl: database.url,
    redisUrl: redisUrl.toString(),
    async drop() {
      await dropDatabaseWhenIdle(base, database.name);
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    databaseUrl: process.env.TEST_DATABASE_URL,
    redisUrl: process.env.TEST_REDIS_URL,
    chatPort: 0,
    partnerPort: 0,
    workspacePort: 0,
    // Tests share 127.0.0.1; the rate-limit tests lower these on a platform of their own.
    rateLimitPerMinute: 1_000_000,
    rateLimitPerDay: 100_000_000,
    // Concurrency tests and benchmarks send far more than a person would; the send-limit test lowers it.
    sendRateLimitPerMinute: 1_000_000,
    logLevel: 'silent',
    // Each file starts platforms and calls few of their routes: compiling a route's schemas on its first call saves
    // about 2 s of CPU per start. The contract run and production compile them all at start (the default).
    schemaCompilation: 'first-use',
    outboxPollMs: 60_000,
    // A test machine shared with other work can stall a statement for seconds; the bounded waits are tested with
    // short settings of their own (test/integration/reliability/frozen-dependencies.test.ts).
    dependencyTimeouts: {
      databaseStatementTimeoutMs: 30_000,
      databaseLockTimeoutMs: 30_000,
      databaseConnectTimeoutMs: 30_000,
      redisCommandTimeoutMs: 30_000,
    },
    ...overrides,
  };
}

/** Tenants (module, customer, registered signing key) and their accounts, in any platform's database. */
/**
 * exp for a relative expiresIn ('1h', '-10m', '30s', '2d') counted from `nowSec`, as jose counts it from the real
 * time; other forms are left to jose.
 */
function expiryFrom(nowSec: number, expiresIn: string | number): string | number {
  if (typeof expiresIn === 'number') return expiresIn;
  const m = /^(-?)(\d+)(s|m|h|d)$/.exec(expiresIn);
  if (!m) return expiresIn;
  const seconds = Number(m[2]) * { s: 1, m: 60, h: 3_600, d: 86_400 }[m[3] as 's' | 'm' | 'h' | 'd'];
  return nowSec + (m[1] === '-' ? -seconds : seconds);
}

/**
 * Tokens are issued at the platform's time (`clock`, which a test may have set anywhere): a token stamped with the
 * real time under a clock months behind it would carry an iat in the future and a lifetime of months from now.
 */
export function tenantFactory(
  db: pg.Pool,
  audience: string,
  clock: Clock = systemClock,
  defaultExpiresIn = '1h',
): (options?: { moduleCode?: string; customer?: string }) => Promise<TestTenant> {
  return async (options: { moduleCode?: string; customer?: string } = {}): Promise<TestTenant> => {
    const moduleCode = options.moduleCode ?? `m${randomUUID().slice(0, 8)}`;
    const customer = options.customer ?? `c-${randomUUID().slice(0, 8)}`;
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = `k-${randomUUID().slice(0, 8)}`;
    await db.query('insert into modules (code, name) values ($1, $1) on conflict do nothing', [moduleCode]);
    await db.query(
      `insert into customer_keys (id, module_code, customer_account_id, kid, algorithm, public_key_pem, fingerprint)
       values ($1, $2, $3, $4, 'ES256', $5, $6)`,
      [newId(), moduleCode, customer, kid, await exportSPKI(publicKey), kid],
    );
    const sign: TestTenant['sign'] = (claims, o = {}) => {
      const jwt = new SignJWT({ cid: customer, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: o.kid ?? kid })
        .setIssuer(o.issuer ?? moduleCode)
        .setSubject(o.subject ?? String(claims.sub ?? ''))
        .setAudience(o.audience ?? audience);
      const nowSec = Math.floor(clock.now().getTime() / 1000);
      jwt.setIssuedAt(nowSec);
      if (o.expiresIn !== null) jwt.setExpirationTime(expiryFrom(nowSec, o.expiresIn ?? defaultExpiresIn));
      return jwt.sign(o.privateKey ?? privateKey);
    };
    return {
      moduleCode,
      customer,
      kid,
      privateKey,
      sign,
      async account(o = {}) {
        const id = newId();
        await db.query(
          `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status) values ($1, $2, $3, $4, 'USER', $5)`,
          [id, moduleCode, customer, o.displayName ?? `User ${id.slice(-6)}`, o.status ?? 'ACTIVE'],
        );
        return { id, token: await sign({}, { subject: id }) };
      },
    };
  };
}

/** Token lifetime on a platform whose clock a test moves: 200 days, within a one-year maximum. */
const travellingTokenLifetime = '200d';

/**
 * log: the platform's logger; a test that reads the log passes its own. Silent by default; TEST_PLATFORM_LOG_LEVEL
 * (warn, info, debug) prints every test platform's log to stderr, to see why a test failed.
 */
export async function startTestPlatform(
  overrides: Partial<Config> = {},
  clock: Clock = systemClock,
  log: Logger = createLogger(process.env.TEST_PLATFORM_LOG_LEVEL ?? 'silent', process.stderr),
): Promise<TestPlatform> {
  // A test that moves the platform's clock (weeks back and forth) keeps using the tokens it made at the start: they
  // live 200 days from the clock's start and the maximum lifetime is a year, so exp - now stays within it anywhere in
  // that range. The lifetime rule itself is tested on platforms that run on the real clock.
  const travels = clock !== systemClock;
  const config = testConfig({ ...(travels ? { maxTokenLifetimeSeconds: 31_536_000 } : {}), ...overrides });
  const platform = await startPlatform(config, log, clock);
  const db = new pg.Pool({ connectionString: platform.databaseUrl, max: 4 });

  const tenant = tenantFactory(db, config.jwtAudience, clock, travels ? travellingTokenLifetime : '1h');

  let admin: Promise<string> | undefined;
  return {
    ...platform,
    chatUrl: platform.chatUrl ?? '',
    partnerUrl: platform.partnerUrl ?? '',
    workspaceUrl: platform.workspaceUrl ?? '',
    db,
    config,
    tenant,
    adminToken() {
      admin ??= (async () => {
        const t = await tenant({ moduleCode: config.platformModule });
        const id = newId();
        await db.query(
          `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status) values ($1, $2, $3, 'Admin', 'USER', 'ACTIVE')`,
          [id, t.moduleCode, t.customer],
        );
        return t.sign({ pa: true }, { subject: id });
      })();
      return admin;
    },
    async stop() {
      await db.end();
      await platform.stop();
    },
  };
}

/** fetch against the platform with JSON in and out. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep the raw text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
