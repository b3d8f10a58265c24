// Files named by an http(s) URL: fetched once through the outbound guard, then stored and sent like an upload. The
// file server is a local one, so the platform here runs with the bots' development switch for private targets
// (BOT_WEBHOOK_ALLOW_PRIVATE); under the default policy the same loopback server is never asked (the last test).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { botCall, expectBotError, resultOf } from '../../helpers/bots.js';
import { fetchFileUrl } from '../../../src/chat/bots/api/file-urls.js';
import { botWithAlice, ownDataDir, bytes, png, storage } from './file-helpers.js';

const uploadMax = 16 * 1024;
const picture = png(320, 240);
const pdf = bytes(2000, 5);
const asked: string[] = [];
let files: Server;
let base: string;
let platform: TestPlatform;

function serve(): Server {
  return createServer((req, res) => {
    asked.push(req.url ?? '');
    const routes: Record<string, () => void> = {
      '/cat.png': () => res.writeHead(200, { 'content-type': 'image/png' }).end(picture),
      '/docs/the%20report.pdf': () => res.writeHead(200, { 'content-type': 'application/pdf; charset=binary' }).end(pdf),
      '/moved': () => res.writeHead(302, { location: '/cat.png' }).end(),
      '/big.bin': () => res.writeHead(200, { 'content-type': 'text/plain' }).end(bytes(uploadMax + 1)),
      '/empty.txt': () => res.writeHead(200, { 'content-type': 'text/plain' }).end(),
      '/program.exe': () => res.writeHead(200, { 'content-type': 'application/x-msdownload' }).end(bytes(10)),
    };
    (routes[req.url ?? ''] ?? (() => res.writeHead(404).end('no')))();
  });
}

beforeAll(async () => {
  files = serve();
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  platform = await startTestPlatform({
    services: ['chat', 'workers'],
    dataDir: ownDataDir(),
    uploadMaxBytes: uploadMax,
    botWebhookAllowPrivate: true,
  });
});
afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => files?.close(resolve));
});

const scene = () => botWithAlice(platform);

test("a URL's content is fetched once and sent like an upload: a photo with its pixels, a document with its name and type", async () => {
  const { bot, roomId } = await scene();
  asked.length = 0;
  const photo = resultOf(await botCall(platform, bot.token, 'sendPhoto', { chat_id: roomId, photo: `${base}/cat.png`, caption: 'a cat' }));
  expect(photo).toMatchObject({ caption: 'a cat', photo: [{ width: 320, height: 240, file_size: picture.length }] });
  const document = resultOf(
    await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: `${base}/docs/the%20report.pdf` }),
  );
  expect(document.document).toMatchObject({ file_name: 'the report.pdf', mime_type: 'application/pdf', file_size: pdf.length });
  expect(asked).toEqual(['/cat.png', '/docs/the%20report.pdf']);
  const file = resultOf(await botCall(platform, bot.token, 'getFile', { file_id: document.document.file_id }));
  const got = await fetch(`${platform.chatUrl}/file/bot${bot.token}/${file.file_path}`);
  expect(Buffer.from(await got.arrayBuffer()).equals(pdf)).toBe(true);
  // An album may name URLs too.
  const album = resultOf(
    await botCall(platform, bot.token, 'sendMediaGroup', {
      chat_id: roomId,
      media: [
        { type: 'photo', media: `${base}/cat.png` },
        { type: 'photo', media: photo.photo[0].file_id },
      ],
    }),
  );
  expect(album.map((m: { photo: Array<{ width: number }> }) => m.photo[0]!.width)).toEqual([320, 320]);
});

test("content that cannot be had is Telegram's 400, and nothing is stored", async () => {
  const { bot, roomId } = await scene();
  const before = await storage(platform, bot.accountId);
  const unreadable = 'Bad Request: failed to get HTTP URL content';
  for (const path of ['/missing.png', '/moved', '/big.bin', '/empty.txt'])
    expectBotError(await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: `${base}${path}` }), 400, unreadable);
  // A port nobody listens on.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  expectBotError(
    await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: `http://127.0.0.1:${port}/x` }),
    400,
    unreadable,
  );
  // Fetched, but not a file that may be sent: refused as an upload would be.
  expectBotError(
    await botCall(platform, bot.token, 'sendPhoto', { chat_id: roomId, photo: `${base}/docs/the%20report.pdf` }),
    400,
    'Bad Request: the photo is not a JPEG, PNG, GIF or WebP image',
  );
  expectBotError(
    await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: `${base}/program.exe` }),
    400,
    /files of type application\/x-msdownload may not be sent here/,
  );
  const wrong = 'Bad Request: wrong file identifier/HTTP URL specified';
  for (const url of [`http://user:secret@127.0.0.1:1/x`, 'http://[::1', 'ftp://127.0.0.1/file.txt'])
    expectBotError(await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: url }), 400, wrong);
  // A chat the bot is not in: nothing is fetched.
  asked.length = 0;
  expectBotError(
    await botCall(platform, bot.token, 'sendDocument', { chat_id: 999999999, document: `${base}/cat.png` }),
    400,
    'Bad Request: chat not found',
  );
  expect(asked).toEqual([]);
  expect(await storage(platform, bot.accountId)).toEqual(before);
});

test('under the default policy a loopback or private target is refused before anything is asked', async () => {
  asked.length = 0;
  const policy = { allowHttp: false, allowPrivate: false };
  const limits = { maxBytes: uploadMax, timeoutMs: 2000 };
  const port = (files.address() as AddressInfo).port;
  for (const url of [
    `${base}/cat.png`,
    `http://localhost:${port}/cat.png`,
    `http://10.0.0.1:${port}/cat.png`,
    `http://[::1]:${port}/cat.png`,
  ])
    await expect(fetchFileUrl(url, policy, limits)).rejects.toMatchObject({
      status: 400,
      message: 'Bad Request: wrong file identifier/HTTP URL specified',
    });
  expect(asked).toEqual([]);
  // The same server, where the policy allows it.
  const fetched = await fetchFileUrl(`${base}/cat.png`, { ...policy, allowPrivate: true }, limits);
  expect(fetched).toMatchObject({ contentType: 'image/png', fileName: 'cat.png' });
  expect(Buffer.from(fetched.bytes).equals(picture)).toBe(true);
});
