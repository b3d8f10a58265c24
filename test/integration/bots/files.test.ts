// Files in the Bot API: sendDocument and sendPhoto with a multipart upload, a file_id or an upload session's id;
// getFile and the download path; what a bot that cannot see a file gets; refusals that store nothing.
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { botCall, chatNumber, confirmJoined, createBot, expectBotError, groupWith, pendingUpdates, resultOf } from '../../helpers/bots.js';
import {
  botWithAlice,
  bytes,
  ownDataDir,
  multipart as multipart_,
  png,
  storage as storage_,
  userUpload as userUpload_,
  type FilePart,
} from './file-helpers.js';

const uploadMax = 64 * 1024;
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'], dataDir: ownDataDir(), uploadMaxBytes: uploadMax });
});
afterAll(async () => {
  await platform?.stop();
});

const scene = () => botWithAlice(platform);

const multipart = (token: string, method: string, fields: Record<string, string | FilePart>) => multipart_(platform, token, method, fields);

async function download(token: string, path: string, telegram = true): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(`${platform.chatUrl}${telegram ? `/file/bot${token}` : `/file/bot/${token}`}/${path}`);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

const storage = (botAccountId: string) => storage_(platform, botAccountId);
const userUpload = (who: TestAccount, data: Buffer, fileName: string, contentType: string) =>
  userUpload_(platform, who, data, fileName, contentType);

test('sendDocument uploads a file; getFile names it; the download returns the same bytes to a bot that can see it', async () => {
  const { bot, roomId } = await scene();
  const data = bytes(5000);
  const sent = resultOf(
    await multipart(bot.token, 'sendDocument', {
      chat_id: roomId,
      caption: 'the report',
      document: { data, name: 'report.pdf', type: 'application/pdf' },
    }),
  );
  expect(sent).toMatchObject({
    message_id: 1,
    caption: 'the report',
    document: {
      file_id: expect.stringMatching(/^F[A-Za-z0-9_-]{22}$/),
      file_unique_id: expect.any(String),
      file_name: 'report.pdf',
      mime_type: 'application/pdf',
      file_size: 5000,
    },
  });
  expect(sent.text).toBeUndefined();
  const file = resultOf(await botCall(platform, bot.token, 'getFile', { file_id: sent.document.file_id }));
  expect(file).toEqual({
    file_id: sent.document.file_id,
    file_unique_id: sent.document.file_unique_id,
    file_size: 5000,
    file_path: `files/${sent.document.file_id}`,
  });
  for (const telegram of [true, false]) {
    const got = await download(bot.token, file.file_path, telegram);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.body.equals(data)).toBe(true);
  }
  // The chat's own view of the message carries the file, as any attachment.
  const { rows } = await platform.db.query(`select text, attachments from messages where room_id = $1`, [roomId]);
  expect(rows[0]).toMatchObject({
    text: 'the report',
    attachments: [{ fileName: 'report.pdf', contentType: 'application/pdf', size: 5000 }],
  });
  expect(
    await count(platform.db, `select count(*) as n from uploads where owner_id = $1 and attached_at is not null`, [bot.accountId]),
  ).toBe(1);
  // A wrong token downloads nothing.
  const wrong = await download('nope', file.file_path);
  expectBotError({ ...wrong, body: JSON.parse(wrong.body.toString()) }, 401, 'Unauthorized');
});

test('sendPhoto re-sends a file by its file_id, with the size read from the image; a document is the same file', async () => {
  const { bot, roomId } = await scene();
  const chatId = await chatNumber(platform, roomId);
  const image = png(640, 480);
  const first = resultOf(await multipart(bot.token, 'sendPhoto', { chat_id: String(chatId), photo: { data: image, name: 'cat.png' } }));
  expect(first.photo).toEqual([
    { file_id: expect.any(String), file_unique_id: expect.any(String), width: 640, height: 480, file_size: image.length },
  ]);
  const fileId = first.photo[0].file_id;
  const again = resultOf(
    await botCall(platform, bot.token, 'sendPhoto', {
      chat_id: chatId,
      photo: fileId,
      caption: 'again',
      reply_to_message_id: first.message_id,
    }),
  );
  expect(again).toMatchObject({
    caption: 'again',
    message_thread_id: first.message_id,
    photo: [{ file_id: fileId, width: 640, height: 480 }],
  });
  const asDocument = resultOf(await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: fileId }));
  expect(asDocument.document).toMatchObject({ file_id: fileId, mime_type: 'image/png', file_name: 'cat.png' });
  // One stored file carried by three messages.
  expect(await count(platform.db, 'select count(*) as n from uploads where owner_id = $1', [bot.accountId])).toBe(1);
  // What is no image is no photo.
  const before = await storage(bot.accountId);
  expectBotError(
    await multipart(bot.token, 'sendPhoto', { chat_id: roomId, photo: { data: bytes(300), name: 'x.png', type: 'image/png' } }),
    400,
    'Bad Request: the photo is not a JPEG, PNG, GIF or WebP image',
  );
  // A type uploads may not have.
  expectBotError(
    await multipart(bot.token, 'sendDocument', {
      chat_id: roomId,
      document: { data: bytes(10), name: 'a.exe', type: 'application/x-msdownload' },
    }),
    400,
    /may not be sent here/,
  );
  expect(await storage(bot.accountId)).toEqual(before);
});

test("a user's message with a file reaches the bot as document and caption; another bot not in the room gets file not found", async () => {
  const { tenant, alice, bot, roomId } = await scene();
  const data = bytes(1234, 3);
  const uploadId = await userUpload(alice, data, 'notes.txt', 'text/plain');
  const sent = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, {
    token: alice.token,
    body: { text: '/report see attached', attachments: [{ uploadId }] },
  });
  expect(sent.status).toBe(201);
  const [update] = await pendingUpdates(platform, bot.token);
  expect(update.message).toMatchObject({
    caption: '/report see attached',
    document: { file_name: 'notes.txt', mime_type: 'text/plain', file_size: 1234 },
  });
  expect(update.message.text).toBeUndefined();
  const fileId = update.message.document.file_id;
  const file = resultOf(await botCall(platform, bot.token, 'getFile', { file_id: fileId }));
  expect((await download(bot.token, file.file_path)).body.equals(data)).toBe(true);

  const other = await createBot(platform, tenant);
  const otherRoom = await groupWith(platform, alice, [other.accountId]);
  await confirmJoined(platform, other.token);
  for (const id of [fileId, uploadId, 'FAAAAAAAAAAAAAAAAAAAAAA', 'garbage']) {
    expectBotError(await botCall(platform, other.token, 'getFile', { file_id: id }), 400, 'Bad Request: file not found');
  }
  expectBotError(
    await botCall(platform, other.token, 'sendDocument', { chat_id: otherRoom, document: fileId }),
    400,
    'Bad Request: file not found',
  );
  // Another user's upload id is not the bot's to send.
  expectBotError(
    await botCall(platform, other.token, 'sendDocument', { chat_id: otherRoom, document: uploadId }),
    400,
    'Bad Request: file not found',
  );
  const refused = await download(other.token, file.file_path);
  expect(refused.status).toBe(404);
  expectBotError({ ...refused, body: JSON.parse(refused.body.toString()) }, 404, 'Not Found');
  // A URL at a loopback address is not fetched (files-by-url.test.ts fetches one where the policy allows it).
  expectBotError(
    await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: 'https://127.0.0.1/a.pdf' }),
    400,
    'Bad Request: wrong file identifier/HTTP URL specified',
  );
  expect(await count(platform.db, 'select count(*) as n from messages where room_id = $1', [otherRoom])).toBe(0);
});

test("a finished upload session of the bot's own account is sent by its uploadId, once", async () => {
  const { tenant, bot, roomId } = await scene();
  const asBot = { id: bot.accountId, token: await tenant.sign({}, { subject: bot.accountId }) };
  const uploadId = await userUpload(asBot, bytes(777), 'data.zip', 'application/zip');
  const sent = resultOf(await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: uploadId }));
  expect(sent.document).toMatchObject({ file_name: 'data.zip', file_size: 777 });
  expectBotError(await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: uploadId }), 400, /sent already/);
});

test('oversize, malformed and misdirected multipart bodies are refused in the envelope and store nothing', async () => {
  const { bot, roomId } = await scene();
  const before = await storage(bot.accountId);
  // Over the attachment limit (UPLOAD_MAX_BYTES), within the multipart body limit.
  expectBotError(
    await multipart(bot.token, 'sendDocument', { chat_id: roomId, document: { data: bytes(uploadMax + 1), name: 'big.bin' } }),
    413,
    /larger than 65536 bytes/,
  );
  // Over the multipart body limit itself.
  const huge = await multipart(bot.token, 'sendDocument', {
    chat_id: roomId,
    document: { data: bytes(platform.config.bodyLimitBytes + uploadMax + 1024), name: 'huge.bin' },
  });
  expectBotError(huge, 413);
  // Malformed multipart.
  const broken = await fetch(`${platform.chatUrl}/bot${bot.token}/sendDocument`, {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    body: '--xyz\r\nContent-Disposition: form-data; name="chat_id"\r\n\r\n1\r\n--xyz\r\nContent-Disposition: form-data; name="document"; filename="a"\r\n',
  });
  expectBotError(
    { status: broken.status, body: await broken.json(), headers: broken.headers },
    400,
    'Bad Request: the multipart/form-data body could not be read',
  );
  // A text part where the file is wanted names no file.
  expectBotError(
    await multipart(bot.token, 'sendDocument', { chat_id: roomId, document: 'not a file' }),
    400,
    'Bad Request: file not found',
  );
  expectBotError(await multipart(bot.token, 'sendDocument', { chat_id: roomId, caption: 'no file' }), 400, /document/);
  expectBotError(
    await multipart(bot.token, 'sendDocument', { chat_id: roomId, document: { data: Buffer.alloc(0), name: 'empty.txt' } }),
    400,
    'Bad Request: file must be non-empty',
  );
  // A room the bot is not in, and a failure after the bytes were stored (an unknown reply target).
  expectBotError(
    await multipart(bot.token, 'sendDocument', { chat_id: '999999999', document: { data: bytes(10), name: 'a.txt', type: 'text/plain' } }),
    400,
    'Bad Request: chat not found',
  );
  expectBotError(
    await multipart(bot.token, 'sendDocument', {
      chat_id: roomId,
      reply_to_message_id: '42',
      document: { data: bytes(10), name: 'a.txt', type: 'text/plain' },
    }),
    400,
    'Bad Request: message to be replied not found',
  );
  expectBotError(
    await multipart(bot.token, 'sendDocument', {
      chat_id: roomId,
      caption: 'x'.repeat(4001),
      document: { data: bytes(10), name: 'a.txt', type: 'text/plain' },
    }),
    400,
  );
  // Files only where a method takes them.
  expectBotError(
    await multipart(bot.token, 'sendMessage', {
      chat_id: roomId,
      text: 'x',
      document: { data: bytes(10), name: 'a.txt', type: 'text/plain' },
    }),
    400,
    /only the send methods of files take files/,
  );
  // A type uploads may not have.
  expectBotError(
    await multipart(bot.token, 'sendDocument', {
      chat_id: roomId,
      document: { data: bytes(10), name: 'a.exe', type: 'application/x-msdownload' },
    }),
    400,
    /may not be sent here/,
  );
  expect(await storage(bot.accountId)).toEqual(before);
});
