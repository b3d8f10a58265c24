// Media in the Bot API: sendVideo, sendAnimation, sendAudio, sendVoice and sendVideoNote keep the kind of their file
// and what the bot stated of it; a kind whose required facts are unknown (a user's image of unknown size) is shown
// as a document; copyMessage copies files; bad input to each method is Telegram's 400 and stores nothing.
import { call, type TestPlatform } from '../../support/platform.js';
import { botCall, expectBotError, groupWith, pendingUpdates, resultOf, say } from '../../helpers/bots.js';
import { botWithAlice, useFilesPlatform, bytes, mp4, multipart, png, storage, userUpload } from './file-helpers.js';

const started = useFilesPlatform({ uploadMaxBytes: 64 * 1024 });
let platform: TestPlatform;
beforeAll(() => {
  platform = started();
});

const scene = () => botWithAlice(platform);

const ids = { file_id: expect.stringMatching(/^F[A-Za-z0-9_-]{22}$/), file_unique_id: expect.stringMatching(/^U/) };

test('each media method sends a file of its kind with what the bot stated, and nothing it did not', async () => {
  const { alice, bot, roomId } = await scene();
  const video = resultOf(
    await multipart(platform, bot.token, 'sendVideo', {
      chat_id: roomId,
      caption: 'the clip',
      duration: '12',
      width: '640',
      height: '360',
      video: { data: bytes(3000), name: 'clip.mp4' },
    }),
  );
  expect(video).toMatchObject({ caption: 'the clip' });
  expect(video.video).toEqual({
    ...ids,
    file_name: 'clip.mp4',
    mime_type: 'video/mp4',
    file_size: 3000,
    width: 640,
    height: 360,
    duration: 12,
  });
  expect(video.document).toBeUndefined();
  // The same file again by file_id, with nothing stated: no duration or size is made up, and a video without the
  // facts Telegram requires of one is shown as a document, which every library parses.
  const again = resultOf(await botCall(platform, bot.token, 'sendVideo', { chat_id: roomId, video: video.video.file_id }));
  expect(again.video).toBeUndefined();
  expect(again.document).toEqual({ ...ids, file_name: 'clip.mp4', mime_type: 'video/mp4', file_size: 3000 });
  expect(again.document.file_id).toBe(video.video.file_id);

  const animation = resultOf(
    await multipart(platform, bot.token, 'sendAnimation', {
      chat_id: roomId,
      width: '2',
      height: '2',
      duration: '1',
      animation: { data: png(2, 2), name: 'dance.gif', type: 'image/gif' },
    }),
  );
  expect(animation.animation).toMatchObject({ file_name: 'dance.gif', mime_type: 'image/gif', width: 2, height: 2, duration: 1 });
  expect(animation.document).toMatchObject({ file_id: animation.animation.file_id, file_name: 'dance.gif' });
  // Without a duration nobody stated or read, the animation is shown as the document it also is.
  const unknown = resultOf(
    await botCall(platform, bot.token, 'sendAnimation', { chat_id: roomId, animation: animation.animation.file_id, width: 2, height: 2 }),
  );
  expect(unknown.animation).toBeUndefined();
  expect(unknown.document).toMatchObject({ file_id: animation.animation.file_id, file_name: 'dance.gif' });

  const audio = resultOf(
    await botCall(platform, bot.token, 'sendAudio', {
      chat_id: roomId,
      audio: video.video.file_id,
      duration: 200,
      performer: 'Band',
      title: 'Song',
    }),
  );
  expect(audio.audio).toEqual({
    ...ids,
    file_name: 'clip.mp4',
    mime_type: 'video/mp4',
    file_size: 3000,
    duration: 200,
    performer: 'Band',
    title: 'Song',
  });

  // An unnamed part (libraries send octet-stream) takes the usual container of the method.
  const voice = resultOf(
    await multipart(platform, bot.token, 'sendVoice', {
      chat_id: roomId,
      duration: '3',
      voice: { data: bytes(900), name: 'blob', type: 'application/octet-stream' },
    }),
  );
  expect(voice.voice).toEqual({ ...ids, mime_type: 'audio/ogg', file_size: 900, duration: 3 });

  const note = resultOf(
    await multipart(platform, bot.token, 'sendVideoNote', {
      chat_id: roomId,
      length: '240',
      duration: '5',
      video_note: { data: bytes(1500), name: 'round.mp4' },
    }),
  );
  expect(note.video_note).toEqual({ ...ids, file_size: 1500, length: 240, duration: 5 });

  // Users see ordinary attachments, with the stored type; the bytes download as sent.
  const history = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=10`, { token: alice.token });
  expect(history.status).toBe(200);
  const types = history.body.data.map((m: { attachments: Array<{ contentType: string }> }) => m.attachments[0]?.contentType).sort();
  expect(types).toEqual(['audio/ogg', 'image/gif', 'image/gif', 'video/mp4', 'video/mp4', 'video/mp4', 'video/mp4']);
  const file = resultOf(await botCall(platform, bot.token, 'getFile', { file_id: voice.voice.file_id }));
  const got = await fetch(`${platform.chatUrl}/file/bot${bot.token}/${file.file_path}`);
  expect(Buffer.from(await got.arrayBuffer()).equals(bytes(900))).toBe(true);
});

test("a user's image reaches the bot as a photo of the size its header gives; copyMessage copies a message's file with its kind and caption", async () => {
  const { tenant, alice, bot, roomId } = await scene();
  const image = png(800, 600);
  const uploadId = await userUpload(platform, alice, image, 'holiday.png', 'image/png');
  await say(platform, alice, roomId, '/pic the beach', { attachments: [{ uploadId }] });
  // A file of an image's type whose bytes are no such image has no size in pixels: a document.
  const fake = await userUpload(platform, alice, bytes(300), 'fake.png', 'image/png');
  await say(platform, alice, roomId, '/pic not really', { attachments: [{ uploadId: fake }] });
  const [update, second] = await pendingUpdates(platform, bot.token, 2);
  expect(update.message).toMatchObject({
    caption: '/pic the beach',
    photo: [{ ...ids, width: 800, height: 600, file_size: image.length }],
  });
  expect(update.message.document).toBeUndefined();
  expect(second.message).toMatchObject({ caption: '/pic not really', document: { ...ids, file_name: 'fake.png', file_size: 300 } });
  expect(second.message.photo).toBeUndefined();
  // The user's client sees the size as well.
  const history = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=2`, { token: alice.token });
  const attachments = history.body.data.map((m: { attachments: unknown[] }) => m.attachments[0]);
  expect(attachments).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ fileName: 'holiday.png', width: 800, height: 600 }),
      expect.not.objectContaining({ width: expect.anything() }),
    ]),
  );
  const photoId = update.message.photo[0].file_id;
  // The bot's sendPhoto of the same file shows the same pixels.
  expect(resultOf(await botCall(platform, bot.token, 'sendPhoto', { chat_id: roomId, photo: photoId })).photo).toEqual([
    { ...ids, width: 800, height: 600, file_size: image.length },
  ]);

  const elsewhere = await groupWith(platform, await tenant.account({ displayName: 'Bob' }), [bot.accountId]);
  const pictureSeq = update.message.message_id;
  const copied = resultOf(
    await botCall(platform, bot.token, 'copyMessage', { chat_id: elsewhere, from_chat_id: roomId, message_id: pictureSeq }),
  );
  const voice = resultOf(
    await multipart(platform, bot.token, 'sendVoice', { chat_id: roomId, duration: '4', voice: { data: bytes(500), name: 'note.ogg' } }),
  );
  const voiceCopy = resultOf(
    await botCall(platform, bot.token, 'copyMessage', { chat_id: elsewhere, from_chat_id: roomId, message_id: voice.message_id }),
  );
  const { rows } = await platform.db.query(`select seq, text, sender_id, attachments from messages where room_id = $1 order by seq`, [
    elsewhere,
  ]);
  expect(rows.map((r) => r.seq)).toEqual([copied.message_id, voiceCopy.message_id]);
  expect(rows[0]).toMatchObject({
    text: '/pic the beach',
    sender_id: bot.accountId,
    attachments: [{ id: uploadId, fileName: 'holiday.png' }],
  });
  expect(rows[1].attachments).toEqual([expect.objectContaining({ kind: 'voice', duration: 4, contentType: 'audio/ogg', size: 500 })]);
  // The copy is the same stored file: one upload of the bot, carried by two messages.
  const { rows: originals } = await platform.db.query(`select attachments from messages where room_id = $1 and seq = $2`, [
    roomId,
    voice.message_id,
  ]);
  expect(rows[1].attachments[0].id).toBe(originals[0].attachments[0].id);
  const { rows: uploads } = await platform.db.query(`select count(*)::int as n from uploads where owner_id = $1`, [bot.accountId]);
  expect(uploads[0].n).toBe(1);
  // A message that is not there is not copied, and nothing is written.
  expectBotError(
    await botCall(platform, bot.token, 'copyMessage', { chat_id: elsewhere, from_chat_id: roomId, message_id: 999 }),
    400,
    'Bad Request: message to copy not found',
  );
  const { rows: after } = await platform.db.query(`select count(*)::int as n from messages where room_id = $1`, [elsewhere]);
  expect(after[0].n).toBe(2);
});

test("facts a video's own header states are shown; what the bot states wins; a file_id resend reads nothing", async () => {
  const { bot, roomId } = await scene();
  const movie = mp4(42, 1280, 720);
  const read = resultOf(await multipart(platform, bot.token, 'sendVideo', { chat_id: roomId, video: { data: movie, name: 'movie.mp4' } }));
  expect(read.video).toEqual({
    ...ids,
    file_name: 'movie.mp4',
    mime_type: 'video/mp4',
    file_size: movie.length,
    duration: 42,
    width: 1280,
    height: 720,
  });
  const stated = resultOf(
    await multipart(platform, bot.token, 'sendVideo', { chat_id: roomId, duration: '40', video: { data: movie, name: 'movie.mp4' } }),
  );
  expect(stated.video).toMatchObject({ duration: 40, width: 1280, height: 720 });
  // A video note's side is its track's width.
  const note = resultOf(
    await multipart(platform, bot.token, 'sendVideoNote', { chat_id: roomId, video_note: { data: mp4(9, 240, 240), name: 'n.mp4' } }),
  );
  expect(note.video_note).toMatchObject({ length: 240, duration: 9 });
  // As a document, the same bytes show no media facts.
  const document = resultOf(
    await multipart(platform, bot.token, 'sendDocument', { chat_id: roomId, document: { data: movie, name: 'movie.mp4' } }),
  );
  expect(Object.keys(document.document).sort()).toEqual(['file_id', 'file_name', 'file_size', 'file_unique_id', 'mime_type']);
});

test('bad input to every media method is a 400 naming what is wrong, and stores nothing', async () => {
  const { bot, roomId } = await scene();
  const sent = resultOf(await multipart(platform, bot.token, 'sendVideo', { chat_id: roomId, video: { data: bytes(100), name: 'v.mp4' } }));
  const before = await storage(platform, bot.accountId);
  // Bytes that are no MP4 and no facts stated: shown as the document it is.
  const fileId = sent.document.file_id;
  const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
    ['sendVideo', { chat_id: roomId, video: fileId, duration: 'long' }, /duration/],
    ['sendVideo', { chat_id: roomId, video: fileId, width: -1 }, /width/],
    ['sendAnimation', { chat_id: roomId }, /animation/],
    ['sendAudio', { chat_id: roomId, audio: fileId, performer: 'x'.repeat(257) }, /performer/],
    ['sendVoice', { chat_id: 999999999, voice: fileId }, 'Bad Request: chat not found'],
    ['sendVoice', { chat_id: roomId, voice: 'FAAAAAAAAAAAAAAAAAAAAAA' }, 'Bad Request: file not found'],
    ['sendVideoNote', { chat_id: roomId, video_note: fileId, length: 'square' }, /length/],
    ['sendVideo', { chat_id: roomId, video: 'ftp://example.invalid/v.mp4' }, 'Bad Request: wrong file identifier/HTTP URL specified'],
    ['sendAudio', { chat_id: roomId, audio: fileId, reply_to_message_id: 42 }, 'Bad Request: message to be replied not found'],
  ];
  for (const [method, body, description] of cases) expectBotError(await botCall(platform, bot.token, method, body), 400, description);
  // Form values are read as their parameters' types, and refused the same way.
  expectBotError(
    await multipart(platform, bot.token, 'sendVideo', { chat_id: roomId, duration: 'long', video: { data: bytes(10), name: 'v.mp4' } }),
    400,
    /duration/,
  );
  // A part of a type uploads may not have, a missing part, an empty one.
  expectBotError(
    await multipart(platform, bot.token, 'sendAudio', {
      chat_id: roomId,
      audio: { data: bytes(10), name: 'a.exe', type: 'application/x-msdownload' },
    }),
    400,
    /may not be sent here/,
  );
  expectBotError(
    await botCall(platform, bot.token, 'sendVoice', { chat_id: roomId, voice: 'attach://nothing' }),
    400,
    'Bad Request: there is no file part named nothing',
  );
  expectBotError(
    await multipart(platform, bot.token, 'sendVoice', { chat_id: roomId, voice: { data: Buffer.alloc(0), name: 'v.ogg' } }),
    400,
    'Bad Request: file must be non-empty',
  );
  expect(await storage(platform, bot.accountId)).toEqual(before);
});
