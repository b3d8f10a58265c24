// The seed lists DELETE /api/v1/bots/{id} with the bot owner's operations ("Soft delete", between "Edit" and
// "Install webhook; owner/tenant"), not with the platform administrator's (create bot, modules, broadcasts): an account
// of the bot's module and customer deletes it; an account of another tenant learns nothing and changes nothing.
import { createBot } from '../../helpers/bots.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
});
afterAll(async () => {
  await platform?.stop();
});

test('an account of the bot tenant deletes the bot: its token stops, its account is deactivated', async () => {
  const tenant = await platform.tenant();
  const owner = await tenant.account();
  const bot = await createBot(platform, tenant);

  const deleted = await call(platform.chatUrl, 'DELETE', `/api/v1/bots/${bot.id}`, { token: owner.token });
  expect(deleted).toMatchObject({ status: 200, body: { data: { botId: bot.id, status: 'deleted' } } });
  expect((await call(platform.chatUrl, 'GET', `/bot${bot.token}/getMe`)).status).toBe(401);
  const account = await platform.db.query('select status from accounts where id = $1', [bot.accountId]);
  expect(account.rows[0].status).toBe('DEACTIVATED');
  expect((await call(platform.chatUrl, 'GET', `/api/v1/bots/${bot.id}`, { token: owner.token })).status).toBe(404);
});

test('an account of another tenant gets 404 bot_not_found and the bot lives on', async () => {
  const bot = await createBot(platform, await platform.tenant());
  const stranger = await (await platform.tenant()).account();

  const refused = await call(platform.chatUrl, 'DELETE', `/api/v1/bots/${bot.id}`, { token: stranger.token });
  expect(refused).toMatchObject({ status: 404, body: { error: { code: 'bot_not_found' } } });
  expect((await call(platform.chatUrl, 'GET', `/bot${bot.token}/getMe`)).status).toBe(200);
  const row = await platform.db.query('select deleted_at from bots where id = $1', [bot.id]);
  expect(row.rows[0].deleted_at).toBeNull();
});
