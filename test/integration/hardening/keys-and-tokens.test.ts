// Verify keys and token lifetimes: RSA keys under 2048 bits are refused at registration and never used when found
// stored (and reported at start); tokens meant to live longer than MAX_TOKEN_LIFETIME_SECONDS are 401.
import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { reportUnusableKeys } from '../../../src/core/auth/key-strength.js';
import { createSqlPool } from '../../../src/platform/db/sql.js';
import { newId } from '../../../src/platform/ids.js';
import { count, expectError, expectOk } from '../../helpers/expect.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { call, startTestPlatform, type TestPlatform, type TestTenant } from '../../support/platform.js';
import { hasFields } from '../../helpers/match.js';

let platform: TestPlatform;
let admin: string;
let tenant: TestTenant;
let accountId: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'partner'] });
  admin = await platform.adminToken();
  tenant = await platform.tenant();
  accountId = (await tenant.account()).id;
});
afterAll(async () => {
  await platform.stop();
});

function rsaPair(bits: number): { pem: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey };
}

/** An RS256 JWT signed with node:crypto (jose refuses to sign with a key under 2048 bits). */
function rs256(privateKey: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${part({ alg: 'RS256', kid })}.${part(claims)}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url')}`;
}

const keysPath = () => `/api/v1/admin/modules/${tenant.moduleCode}/customers/${tenant.customer}/keys`;
const rooms = (token: string, base = platform.chatUrl) => call(base, 'GET', '/api/v1/rooms', { token });
const now = () => Math.floor(Date.now() / 1000);
const claims = (extra: Record<string, unknown>) => ({
  iss: tenant.moduleCode,
  cid: tenant.customer,
  sub: accountId,
  aud: platform.config.jwtAudience,
  ...extra,
});

describe('RSA key size', () => {
  test.each([[512], [1024], [2047]])('a %i-bit RSA key is refused at registration naming body.publicKeyPem', async (bits) => {
    const before = await count(platform.db, 'select count(*) as n from customer_keys where module_code = $1', [tenant.moduleCode]);
    const res = await call(platform.chatUrl, 'POST', keysPath(), {
      token: admin,
      body: { kid: `rsa-${bits}`, algorithm: 'RS256', publicKeyPem: rsaPair(bits).pem },
    });
    expectError(res, 400, 'validation_failed', 'body.publicKeyPem');
    expect(res.body.error.message).toMatch(new RegExp(`${bits} bits; at least 2048`));
    expect(await count(platform.db, 'select count(*) as n from customer_keys where module_code = $1', [tenant.moduleCode])).toBe(before);
  });

  test('a 2048-bit RSA key is registered and verifies tokens', async () => {
    const { pem, privateKey } = rsaPair(2048);
    expectOk(
      await call(platform.chatUrl, 'POST', keysPath(), { token: admin, body: { kid: 'rsa-2048', algorithm: 'RS256', publicKeyPem: pem } }),
      201,
    );
    expectOk(await rooms(rs256(privateKey, 'rsa-2048', claims({ iat: now(), exp: now() + 600 }))));
  });

  test('a weak key found stored is never used, and is reported with its module, customer and kid', async () => {
    const weak = rsaPair(512);
    await platform.db.query(
      `insert into customer_keys (id, module_code, customer_account_id, kid, algorithm, public_key_pem, fingerprint)
       values ($1, $2, $3, 'weak-512', 'RS256', $4, 'weak-512')`,
      [newId(), tenant.moduleCode, tenant.customer, weak.pem],
    );
    expectOk(await call(platform.chatUrl, 'POST', `${keysPath()}/refresh`, { token: admin }));
    const token = rs256(weak.privateKey, 'weak-512', claims({ iat: now(), exp: now() + 600 }));
    expectError(await rooms(token), 401, 'unknown_signing_key');
    expectPartnerError(await call(platform.partnerUrl, 'GET', '/api/v1/workspaces', { token }), 401, 'unknown_signing_key');
    // The customer's other keys keep working.
    expectOk(await rooms((await tenant.account()).token));

    const logged: Array<{ fields: Record<string, unknown>; message: string }> = [];
    const log = { error: (fields: Record<string, unknown>, message: string) => logged.push({ fields, message }) };
    const sql = createSqlPool(platform.databaseUrl, 1);
    try {
      expect(await reportUnusableKeys(sql, log as never)).toBeGreaterThanOrEqual(1);
    } finally {
      await sql.end();
    }
    const entry = logged.find((l) => hasFields(l.fields, { kid: 'weak-512', moduleCode: tenant.moduleCode }));
    expect(entry?.fields.customerAccountId).toBe(tenant.customer);
    expect(entry?.message).toMatch(/512 bits; at least 2048 bits are required: it is ignored/);
  });
});

describe('token lifetime', () => {
  const es256 = (payload: Record<string, unknown>) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: tenant.kid }).sign(tenant.privateKey);

  test('exp - iat of one day is accepted; one second more is 401 token_lifetime_exceeded', async () => {
    const iat = now();
    expectOk(await rooms(await es256(claims({ iat, exp: iat + 86_400 }))));
    const res = await rooms(await es256(claims({ iat, exp: iat + 86_401 })));
    expectError(res, 401, 'token_lifetime_exceeded', 'header.authorization');
    expect(res.body.error.message).toMatch(/lifetime \(exp - iat = 86401 s\) exceeds the maximum of 86400 s/);
  });

  test('an exp in the year 5138 is refused', async () => {
    expect(new Date(100_000_000_000 * 1000).getUTCFullYear()).toBe(5138);
    expectError(await rooms(await es256(claims({ iat: now(), exp: 100_000_000_000 }))), 401, 'token_lifetime_exceeded');
    expectError(await rooms(await es256(claims({ exp: 100_000_000_000 }))), 401, 'token_lifetime_exceeded');
  });

  test('without iat, the lifetime is counted from now', async () => {
    expectOk(await rooms(await es256(claims({ exp: now() + 3_600 }))));
    const res = await rooms(await es256(claims({ exp: now() + 2 * 86_400 })));
    expectError(res, 401, 'token_lifetime_exceeded');
    expect(res.body.error.message).toMatch(/exp - now = \d+ s/);
  });

  test('a signature that does not verify is refused for that reason, before the lifetime is looked at', async () => {
    const forged = await new SignJWT(claims({ iat: now(), exp: 100_000_000_000 }))
      .setProtectedHeader({ alg: 'ES256', kid: tenant.kid })
      .sign((await generateKeyPair('ES256')).privateKey);
    expectError(await rooms(forged), 401, 'token_invalid');
  });

  test('MAX_TOKEN_LIFETIME_SECONDS sets the cap, on the partner listener too', async () => {
    const node = await startTestPlatform({ services: ['chat', 'partner'], maxTokenLifetimeSeconds: 600 });
    try {
      const iat = now();
      expectOk(await rooms(await es256(claims({ iat, exp: iat + 600 })), node.chatUrl));
      const long = await es256(claims({ iat, exp: iat + 601 }));
      expectError(await rooms(long, node.chatUrl), 401, 'token_lifetime_exceeded');
      const res = await call(node.partnerUrl, 'GET', '/api/v1/workspaces', { token: long });
      expectPartnerError(res, 401, 'token_lifetime_exceeded');
      expect(res.body.error.message).toMatch(/maximum of 600 s/);
    } finally {
      await node.stop();
    }
  });
});
