// Modules and customer verify keys, administered by a platform admin.
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, generateSigningKey, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';

let platform: TestPlatform;
let base: string;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  base = platform.chatUrl;
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform.stop();
});

const uniqueCode = () => `t${randomUUID().replace(/-/g, '').slice(0, 10)}`;
const keysPath = (code: string, customer: string) => `/api/v1/admin/modules/${code}/customers/${customer}/keys`;
const keyRows = (code: string, customer: string) =>
  count(platform.db, 'select count(*) as n from customer_keys where module_code = $1 and customer_account_id = $2', [code, customer]);

describe('modules', () => {
  test('create answers 201 with Location, a duplicate code is 409 module_exists', async () => {
    const code = uniqueCode();
    const res = await call(base, 'POST', '/api/v1/admin/modules', { token: admin, body: { code, name: 'Tasks' } });
    expectOk(res, 201);
    expect(res.headers.get('location')).toBe(`/api/v1/admin/modules/${code}`);
    expect(res.body.data).toMatchObject({ code, name: 'Tasks', customers: [] });
    expect(Number.isNaN(Date.parse(res.body.data.createdAt))).toBe(false);

    const again = await call(base, 'POST', '/api/v1/admin/modules', { token: admin, body: { code, name: 'Other name' } });
    expectError(again, 409, 'module_exists');
    const { rows } = await platform.db.query('select name from modules where code = $1', [code]);
    expect(rows).toEqual([{ name: 'Tasks' }]);
  });

  test('a code outside the pattern is validation_failed at body.code', async () => {
    for (const code of ['Upper', '1abc', 'a', 'has space', 'x'.repeat(33)]) {
      const res = await call(base, 'POST', '/api/v1/admin/modules', { token: admin, body: { code, name: 'n' } });
      expectError(res, 400, 'validation_failed', 'body.code');
    }
  });

  test('listModules lists modules with the customers that have keys', async () => {
    const code = uniqueCode();
    expectOk(await call(base, 'POST', '/api/v1/admin/modules', { token: admin, body: { code, name: 'CRM' } }), 201);
    for (const customer of ['cust-b', 'cust-a']) {
      const { publicKeyPem } = await generateSigningKey();
      expectOk(await call(base, 'POST', keysPath(code, customer), { token: admin, body: { algorithm: 'ES256', publicKeyPem } }), 201);
    }
    // A second key of the same customer does not list the customer twice.
    const { publicKeyPem } = await generateSigningKey();
    expectOk(await call(base, 'POST', keysPath(code, 'cust-a'), { token: admin, body: { algorithm: 'ES256', publicKeyPem } }), 201);

    const res = await call(base, 'GET', '/api/v1/admin/modules', { token: admin });
    expectOk(res);
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    const mine = res.body.data.find((m: { code: string }) => m.code === code);
    expect(mine).toMatchObject({ code, name: 'CRM', customers: ['cust-a', 'cust-b'] });
    expect(res.body.data.some((m: { code: string }) => m.code === platform.config.platformModule)).toBe(true);
  });
});

describe('customer keys', () => {
  let code: string;
  beforeAll(async () => {
    code = uniqueCode();
    expectOk(await call(base, 'POST', '/api/v1/admin/modules', { token: admin, body: { code, name: 'Keys' } }), 201);
  });

  test('register an ES256 key: fingerprint is sha256 of the DER, default kid its first 16 hex', async () => {
    const { publicKeyPem } = await generateSigningKey();
    const res = await call(base, 'POST', keysPath(code, 'c1'), { token: admin, body: { algorithm: 'ES256', publicKeyPem } });
    expectOk(res, 201);
    const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
    const fingerprint = createHash('sha256').update(der).digest('hex');
    expect(res.body.data).toMatchObject({
      moduleCode: code,
      customerAccountId: 'c1',
      algorithm: 'ES256',
      fingerprint,
      kid: fingerprint.slice(0, 16),
    });
    expect(res.headers.get('location')).toBe(keysPath(code, 'c1'));

    const list = await call(base, 'GET', keysPath(code, 'c1'), { token: admin });
    expectOk(list);
    expect(list.body.data.map((k: { id: string }) => k.id)).toEqual([res.body.data.id]);
  });

  test('an RS256 key is accepted', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const res = await call(base, 'POST', keysPath(code, 'c-rsa'), {
      token: admin,
      body: { kid: 'rsa-1', algorithm: 'RS256', publicKeyPem },
    });
    expectOk(res, 201);
    expect(res.body.data.algorithm).toBe('RS256');
  });

  test('a bad PEM is 400 at body.publicKeyPem and stores nothing', async () => {
    const bad = ['not a pem', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n'];
    for (const publicKeyPem of bad) {
      const res = await call(base, 'POST', keysPath(code, 'c-bad'), { token: admin, body: { algorithm: 'ES256', publicKeyPem } });
      expectError(res, 400, 'validation_failed', 'body.publicKeyPem');
    }
    expect(await keyRows(code, 'c-bad')).toBe(0);
  });

  test('a key that does not fit the algorithm is 400 (EC key declared RS256)', async () => {
    const { publicKeyPem } = await generateSigningKey();
    const res = await call(base, 'POST', keysPath(code, 'c-mismatch'), { token: admin, body: { algorithm: 'RS256', publicKeyPem } });
    expectError(res, 400, 'validation_failed', 'body.publicKeyPem');
    expect(await keyRows(code, 'c-mismatch')).toBe(0);
  });

  test('a private key PEM is not stored as a verify key', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const publicKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const res = await call(base, 'POST', keysPath(code, 'c-private'), { token: admin, body: { algorithm: 'ES256', publicKeyPem } });
    expectError(res, 400, 'validation_failed', 'body.publicKeyPem');
    expect(await keyRows(code, 'c-private')).toBe(0);
  });

  test('a duplicate kid for the same customer is 409 key_exists; the same kid for another customer is fine', async () => {
    const first = await generateSigningKey();
    const second = await generateSigningKey();
    expectOk(
      await call(base, 'POST', keysPath(code, 'c-dup'), {
        token: admin,
        body: { kid: 'k1', algorithm: 'ES256', publicKeyPem: first.publicKeyPem },
      }),
      201,
    );
    const dup = await call(base, 'POST', keysPath(code, 'c-dup'), {
      token: admin,
      body: { kid: 'k1', algorithm: 'ES256', publicKeyPem: second.publicKeyPem },
    });
    expectError(dup, 409, 'key_exists');
    expect(await keyRows(code, 'c-dup')).toBe(1);
    expectOk(
      await call(base, 'POST', keysPath(code, 'c-dup2'), {
        token: admin,
        body: { kid: 'k1', algorithm: 'ES256', publicKeyPem: second.publicKeyPem },
      }),
      201,
    );
  });

  test('an unknown module is 404 module_not_found for register, list and refresh', async () => {
    const missing = uniqueCode();
    const { publicKeyPem } = await generateSigningKey();
    expectError(
      await call(base, 'POST', keysPath(missing, 'c1'), { token: admin, body: { algorithm: 'ES256', publicKeyPem } }),
      404,
      'module_not_found',
    );
    expectError(await call(base, 'GET', keysPath(missing, 'c1'), { token: admin }), 404, 'module_not_found');
    expectError(await call(base, 'POST', `${keysPath(missing, 'c1')}/refresh`, { token: admin }), 404, 'module_not_found');
    expect(await count(platform.db, 'select count(*) as n from customer_keys where module_code = $1', [missing])).toBe(0);
  });

  test('refresh answers 200 in the envelope', async () => {
    const res = await call(base, 'POST', `${keysPath(code, 'c1')}/refresh`, { token: admin });
    expectOk(res);
    expect(typeof res.body.data).toBe('object');
  });

  test('refresh answers data { status: "refreshed" }', async () => {
    const res = await call(base, 'POST', `${keysPath(code, 'c1')}/refresh`, { token: admin });
    expect(res.body.data).toEqual({ status: 'refreshed' });
  });

  test('an unknown algorithm and an unknown field are validation errors', async () => {
    const { publicKeyPem } = await generateSigningKey();
    expectError(
      await call(base, 'POST', keysPath(code, 'c2'), { token: admin, body: { algorithm: 'HS256', publicKeyPem } }),
      400,
      'validation_failed',
      'body.algorithm',
    );
    expectError(
      await call(base, 'POST', keysPath(code, 'c2'), { token: admin, body: { algorithm: 'ES256', publicKeyPem, secret: 'x' } }),
      400,
      'validation_failed',
      'body.secret',
    );
    expect(await keyRows(code, 'c2')).toBe(0);
  });

  test('a key registered through the API authenticates that customer at once', async () => {
    const tenant = await platform.tenant({ moduleCode: code, customer: 'c-live' });
    const alice = await tenant.account();
    expectOk(await call(base, 'GET', '/api/v1/rooms', { token: alice.token }));
    const fresh = await generateSigningKey();
    expectOk(
      await call(base, 'POST', keysPath(code, 'c-live'), {
        token: admin,
        body: { kid: 'live-2', algorithm: 'ES256', publicKeyPem: fresh.publicKeyPem },
      }),
      201,
    );
    const token = await tenant.sign({}, { subject: alice.id, kid: 'live-2', privateKey: fresh.privateKey });
    expectOk(await call(base, 'GET', '/api/v1/rooms', { token }));
  });
});
