// python-telegram-bot 22.8 formats through the Bot API with its own calls (HTML, MarkdownV2 escaped by its helper,
// explicit entities, an edit) and reads the entities back into its objects: its text_html rebuilds the markup. The
// user sees the plain text with the formatting through the chat API; bad markup is the library's BadRequest.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { createBot, groupWith, waitForMessage } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const run = promisify(execFile);
const script = path.join('test', 'integration', 'bots', 'matrix', 'ptb_formatting.py');

test('python-telegram-bot: HTML, MarkdownV2, entities and an edit reach the user formatted; bad markup is BadRequest', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  const { stdout } = await run(path.join('.tools', 'venv', 'bin', 'python'), [script], {
    env: { ...process.env, BOT_TOKEN: bot.token, API_ROOT: platform.chatUrl, CHAT_ID: roomId },
    timeout: 60_000,
  });
  const out = JSON.parse(stdout);

  expect(out.html).toEqual({
    text: 'bold & co',
    entities: [
      { type: 'bold', offset: 0, length: 4 },
      { type: 'text_link', offset: 7, length: 2, url: 'https://example.com/' },
    ],
    html: '<b>bold</b> &amp; <a href="https://example.com/">co</a>',
  });
  expect(out.markdown_v2.text).toBe('v1.0 (beta) gone');
  expect(out.markdown_v2.entities).toEqual([
    { type: 'bold', offset: 0, length: 11 },
    { type: 'strikethrough', offset: 12, length: 4 },
  ]);
  expect(out.entities.html).toBe('<i>plain</i> words');
  expect(out.edited).toMatchObject({ text: 'edited', html: '<u>edited</u>' });
  expect(out.bad).toMatch(/can't parse entities: can't find end tag corresponding to start tag "b"/i);

  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === 'bold & co');
  expect(seen.formatting).toEqual(out.html.entities);
  const edited = await waitForMessage(platform, alice, roomId, (m) => m.text === 'edited');
  expect(edited.formatting).toEqual([{ type: 'underline', offset: 0, length: 6 }]);
  // Three messages sent, the bad one not among them.
  expect(await count(platform.db, 'select count(*) as n from messages where sender_id = $1', [bot.accountId])).toBe(3);
});
