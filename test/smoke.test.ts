import { call, startTestPlatform, type TestPlatform } from './support/platform.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform.stop();
});

test('a member creates a room, sends and reads back a message', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const room = await call(platform.chatUrl, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Smoke' } });
  expect(room.status).toBe(201);
  const sent = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${room.body.data.id}/messages`, {
    token: alice.token,
    body: { text: 'hi' },
  });
  expect(sent.status).toBe(201);
  const page = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${room.body.data.id}/messages`, { token: alice.token });
  expect(page.body.data.map((m: { text: string }) => m.text)).toEqual(['hi']);
});
