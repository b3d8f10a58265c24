// CONNECT authenticates exactly as REST does (Authorization: Bearer, or the token as passcode): every refusal is
// an ERROR frame with the REST error code, then the close; a token's exp ends its session.
import { generateKeyPair } from 'jose';
import type { TestPlatform } from '../../support/platform.js';
import { Probe, RawStomp, startNode, wsUrl } from './support.js';

let p: TestPlatform;
beforeAll(async () => {
  p = await startNode();
});
afterAll(async () => {
  await p?.stop();
});

test('bad, expired, foreign, deactivated and banned tokens are refused with the REST codes', async () => {
  const tenant = await p.tenant();
  const alice = await tenant.account();
  const url = wsUrl(p);
  const { privateKey: otherKey } = await generateKeyPair('ES256');
  const cases: Array<[string | null, string]> = [
    [null, 'unauthenticated'],
    ['not-a-jwt', 'token_malformed'],
    [await tenant.sign({}, { subject: alice.id, expiresIn: '-10m' }), 'token_expired'],
    [await tenant.sign({}, { subject: alice.id, privateKey: otherKey }), 'token_invalid'],
    [await tenant.sign({}, { subject: alice.id, audience: 'someone-else' }), 'token_audience_mismatch'],
    [(await tenant.account({ status: 'DEACTIVATED' })).token, 'account_deactivated'],
    [(await tenant.account({ status: 'BANNED' })).token, 'account_banned'],
  ];
  for (const [token, code] of cases) {
    const refusal = await Probe.refusal(url, token);
    expect({ token: token?.slice(0, 12), code: refusal.code }).toEqual({ token: token?.slice(0, 12), code });
    expect(refusal.message.length).toBeGreaterThan(0);
  }
  // A header that is not "Bearer <jwt>".
  expect(await Probe.refusal(url, null, { Authorization: 'Basic abc' })).toMatchObject({ code: 'token_malformed' });
});

test('the token is also accepted as passcode; CONNECTED names the account, its newest seq and the heart-beats', async () => {
  const tenant = await p.tenant();
  const alice = await tenant.account();
  const probe = await Probe.open(wsUrl(p), null, { headers: { login: 'ignored', passcode: alice.token } });
  expect(probe.connected.headers).toMatchObject({ version: '1.2', 'user-name': alice.id, 'last-seq': '0', 'heart-beat': '10000,10000' });
  await probe.close();
});

test('a client offering only STOMP 1.0 or 1.1 is refused', async () => {
  const tenant = await p.tenant();
  const alice = await tenant.account();
  const raw = await RawStomp.open(wsUrl(p));
  raw.send(`CONNECT\naccept-version:1.0,1.1\nAuthorization:Bearer ${alice.token}\n\n\0`);
  expect((await raw.error()).headers).toMatchObject({ code: 'unsupported_version' });
});

test('the session ends when its token expires: ERROR token_expired, then the close', async () => {
  const tenant = await p.tenant();
  const alice = await tenant.account();
  const token = await tenant.sign({}, { subject: alice.id, expiresIn: Math.floor(Date.now() / 1000) + 2 });
  const probe = await Probe.open(wsUrl(p), token);
  await probe.subscribeEvents();
  expect(probe.errors).toEqual([]);
  await probe.waitForClose(10_000);
  expect(probe.errors.map((e) => e.code)).toEqual(['token_expired']);
  // The same token is refused from now on.
  expect(await Probe.refusal(wsUrl(p), token).then((r) => r.code)).toMatch(/^token_expired$/);
});
