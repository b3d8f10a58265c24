// MAX_TOKEN_LIFETIME_SECONDS was bypassed by an iat in the future: iat = now + 10 y - 60 and exp = now + 10 y gave
// REST 200 and STOMP CONNECTED. exp - now is bounded as well as exp - iat.
import { SignJWT } from 'jose';
import { expectError, expectOk } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';
import { Probe, wsUrl } from '../realtime/support.js';

let platform: TestPlatform;
let tenant: TestTenant;
let alice: TestAccount;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  tenant = await platform.tenant();
  alice = await tenant.account();
});
afterAll(async () => {
  await platform?.stop();
});

const now = () => Math.floor(Date.now() / 1000);
const tenYears = 10 * 365 * 86_400;

function token(iat: number, exp: number): Promise<string> {
  return new SignJWT({ cid: tenant.customer })
    .setProtectedHeader({ alg: 'ES256', kid: tenant.kid })
    .setIssuer(tenant.moduleCode)
    .setSubject(alice.id)
    .setAudience(platform.config.jwtAudience)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(tenant.privateKey);
}

test('a ten-year token with an iat a minute before its exp is 401 token_lifetime_exceeded on REST, measured as exp - now', async () => {
  const res = await call(platform.chatUrl, 'GET', '/api/v1/rooms', { token: await token(now() + tenYears - 60, now() + tenYears) });
  expectError(res, 401, 'token_lifetime_exceeded', 'header.authorization');
  expect(res.body.error.message).toContain('exp - now');
});

test('the same token is refused by STOMP CONNECT with the REST code', async () => {
  const refusal = await Probe.refusal(wsUrl(platform), await token(now() + tenYears - 60, now() + tenYears));
  expect(refusal.code).toBe('token_lifetime_exceeded');
});

test('a future iat with exp within the maximum from now is still accepted', async () => {
  expectOk(await call(platform.chatUrl, 'GET', '/api/v1/rooms', { token: await token(now() + 600, now() + 3_600) }));
});
