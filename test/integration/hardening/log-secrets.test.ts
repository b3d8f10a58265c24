// No credential reaches the log: a platform logging at debug serves requests that carry bot tokens (both Bot API path
// forms; a regenerated and a deleted bot's too), an upload token (tus), JWTs, partner and workspace API keys and
// credential-named query parameters,
// then the whole log of the run is searched for every credential the test made. One hit fails the test.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../../../src/platform/logger.js';
import { botCall, createBot } from '../../helpers/bots.js';
import { testWorkspace } from '../../support/partner.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';

let platform: TestPlatform;
let log = '';
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString('utf8');
    done();
  },
});

beforeAll(async () => {
  platform = await startTestPlatform(
    { services: ['chat', 'partner', 'workspace', 'workers'], logLevel: 'debug' },
    undefined,
    createLogger('debug', sink),
  );
}, 120_000);
afterAll(async () => {
  await platform?.stop();
});

/** Whether the log holds the credential, or the secret part after its colon (of an id:secret credential). */
function inLog(credential: string): boolean {
  return log.includes(credential) || log.includes(credential.split(':')[1] ?? credential);
}

test('a run that used every kind of credential logs none of them', async () => {
  const credentials: string[] = [];
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  credentials.push(alice.token);

  // Bot tokens: live (both path forms, known and unknown methods), regenerated (old and new), deleted.
  const bot = await createBot(platform, tenant);
  credentials.push(bot.token);
  await botCall(platform, bot.token, 'getMe');
  await botCall(platform, bot.token, 'getMe', undefined, { telegram: true });
  await botCall(platform, bot.token, 'noSuchMethod', undefined, { telegram: true, query: 'x=1' });
  const admin = await platform.adminToken();
  credentials.push(admin);
  const regenerated = await call(platform.chatUrl, 'POST', `/api/v1/bots/${bot.id}/regenerate-token`, { token: admin });
  expect(regenerated.status).toBe(200);
  const fresh = JSON.stringify(regenerated.body).match(/"token":"([^"]+)"/)?.[1];
  expect(fresh).toBeDefined();
  credentials.push(fresh!);
  expect((await botCall(platform, bot.token, 'getMe', undefined, { telegram: true })).status).toBe(401);
  await botCall(platform, fresh!, 'getMe');
  const doomed = await createBot(platform, tenant);
  credentials.push(doomed.token);
  expect((await call(platform.chatUrl, 'DELETE', `/api/v1/bots/${doomed.id}`, { token: admin })).status).toBeLessThan(300);
  expect((await botCall(platform, doomed.token, 'getMe')).status).toBe(401);

  // An upload token, on tus requests that succeed and fail.
  const upload = await call(platform.chatUrl, 'POST', '/api/v1/files/upload-session', {
    token: alice.token,
    body: { fileName: 'a.txt', contentType: 'text/plain', size: 4 },
  });
  expect(upload.status).toBe(200);
  const uploadToken = upload.body.data.headers['Upload-Token'] as string;
  credentials.push(uploadToken);
  const created = await fetch(`${platform.chatUrl}/media/uploads`, {
    method: 'POST',
    headers: { 'Upload-Token': uploadToken, 'Tus-Resumable': '1.0.0', 'Upload-Length': '4' },
  });
  await created.arrayBuffer();
  await (await fetch(`${platform.chatUrl}/media/uploads?upload_token=${uploadToken}`, { method: 'OPTIONS' })).arrayBuffer();

  // Credential-named query parameters, on routes that exist and routes that do not.
  for (const name of ['token', 'access_token', 'api_key', 'key', 'secret', 'client_secret']) {
    const value = `q${randomBytes(12).toString('hex')}`;
    credentials.push(value);
    await (
      await fetch(`${platform.chatUrl}/api/v1/rooms?${name}=${value}&limit=1`, { headers: { authorization: `Bearer ${alice.token}` } })
    ).arrayBuffer();
    await (await fetch(`${platform.chatUrl}/nowhere?${name}=${value}`)).arrayBuffer();
  }

  // Partner (X-Api-Key) and workspace (Bearer svc_) keys, accepted and refused, also in a query parameter.
  const partnerKey = (await (await testWorkspace(platform)).key(['crm.read'])).key;
  const svcKey = (await (await svcWorkspace(platform)).key(['webhook.webhooks.read'])).key;
  credentials.push(partnerKey, svcKey);
  for (const key of [partnerKey, `${partnerKey}x`]) {
    await call(platform.partnerUrl, 'GET', '/api/v1/partner/crm/_me', { headers: { 'x-api-key': key } });
    await (await fetch(`${platform.partnerUrl}/api/v1/partner/crm/_me?api_key=${key}`)).arrayBuffer();
  }
  for (const key of [svcKey, `${svcKey}x`]) {
    await call(platform.workspaceUrl, 'GET', '/api/v1/webhooks', { headers: { authorization: `Bearer ${key}` } });
    await (await fetch(`${platform.workspaceUrl}/api/v1/webhooks?key=${key}`)).arrayBuffer();
  }

  await new Promise((resolve) => setTimeout(resolve, 200));
  // The run did log its requests: the search below looks at real lines.
  expect(log).toContain('request completed');
  expect(log).toContain('/bot/[redacted]/getMe');
  expect(log).toContain('"listener":"partner"');
  expect(log).toContain('"listener":"workspace"');
  const leaked = credentials.filter(inLog);
  expect(leaked).toEqual([]);
});
