// sendMediaGroup: an album of 2 to 10 files, one message each, sharing media_group_id; what may not be mixed is
// refused; every file is checked before any message is written, so a bad one sends and stores nothing.
import type { TestPlatform } from '../../support/platform.js';
import { botCall, expectBotError, resultOf } from '../../helpers/bots.js';
import { botWithAlice, useFilesPlatform, bytes, mp4, multipart, png, storage } from './file-helpers.js';

const started = useFilesPlatform({ uploadMaxBytes: 32 * 1024 });
let platform: TestPlatform;
beforeAll(() => {
  platform = started();
});

const scene = () => botWithAlice(platform);

test('photos and videos sent as one album: one message each, in order, sharing media_group_id', async () => {
  const { bot, roomId } = await scene();
  const first = resultOf(
    await multipart(platform, bot.token, 'sendPhoto', { chat_id: roomId, photo: { data: png(10, 20), name: 'a.png' } }),
  );
  const media = [
    { type: 'photo', media: 'attach://one', caption: 'the trip' },
    { type: 'video', media: 'attach://two', duration: 7 },
    { type: 'photo', media: first.photo[0].file_id },
  ];
  const album = resultOf(
    await multipart(platform, bot.token, 'sendMediaGroup', {
      chat_id: roomId,
      media: JSON.stringify(media),
      one: { data: png(30, 40), name: 'b.png' },
      two: { data: mp4(7, 64, 48), name: 'c.mp4' },
    }),
  );
  expect(album).toHaveLength(3);
  expect(album.map((m: { message_id: number }) => m.message_id)).toEqual([2, 3, 4]);
  const group = album[0].media_group_id;
  expect(group).toEqual(expect.any(String));
  expect(album.map((m: { media_group_id: string }) => m.media_group_id)).toEqual([group, group, group]);
  expect(album[0]).toMatchObject({ caption: 'the trip', photo: [{ width: 30, height: 40 }] });
  expect(album[1]).toMatchObject({ video: { file_name: 'c.mp4', mime_type: 'video/mp4', duration: 7, width: 64, height: 48 } });
  expect(album[1].caption).toBeUndefined();
  expect(album[2].photo).toEqual([{ ...first.photo[0] }]);
  // Documents form an album of their own, by JSON with file_ids.
  const docs = resultOf(
    await botCall(platform, bot.token, 'sendMediaGroup', {
      chat_id: roomId,
      media: [
        { type: 'document', media: album[1].video.file_id },
        { type: 'document', media: first.photo[0].file_id },
      ],
      reply_to_message_id: 1,
    }),
  );
  expect(docs.map((m: { document: { file_name: string } }) => m.document.file_name)).toEqual(['c.mp4', 'a.png']);
  expect(docs[0].media_group_id).not.toBe(group);
  expect(docs.map((m: { message_thread_id: number }) => m.message_thread_id)).toEqual([1, 1]);
});

test('an album that may not be sent is refused with the reason, and nothing is sent or stored', async () => {
  const { bot, roomId } = await scene();
  const known = resultOf(
    await multipart(platform, bot.token, 'sendDocument', { chat_id: roomId, document: { data: bytes(50), name: 'a.txt' } }),
  );
  const fileId = known.document.file_id;
  const before = await storage(platform, bot.accountId);
  const item = (type: string, media = fileId) => ({ type, media });
  const cases: Array<[unknown, string | RegExp]> = [
    [[item('document'), item('photo')], "Bad Request: document can't be mixed with other media types"],
    [[item('audio'), item('video')], "Bad Request: audio can't be mixed with other media types"],
    [[item('document')], /media/],
    [Array.from({ length: 11 }, () => item('document')), /media/],
    [[item('sticker'), item('document')], /type/],
    [[item('document'), item('document', 'FAAAAAAAAAAAAAAAAAAAAAA')], 'Bad Request: file not found'],
    [[item('document'), item('document', 'attach://missing')], 'Bad Request: there is no file part named missing'],
    [[item('photo', 'attach://x'), item('photo')], 'Bad Request: there is no file part named x'],
  ];
  for (const [media, description] of cases)
    expectBotError(await botCall(platform, bot.token, 'sendMediaGroup', { chat_id: roomId, media }), 400, description);
  expectBotError(
    await botCall(platform, bot.token, 'sendMediaGroup', { chat_id: 999999999, media: [item('document'), item('document')] }),
    400,
    'Bad Request: chat not found',
  );
  // Parts that arrived are removed when a later file of the album is refused.
  expectBotError(
    await multipart(platform, bot.token, 'sendMediaGroup', {
      chat_id: roomId,
      media: JSON.stringify([item('photo', 'attach://one'), item('photo', 'attach://two')]),
      one: { data: png(5, 5), name: 'fine.png' },
      two: { data: bytes(40), name: 'not-an-image.png' },
    }),
    400,
    'Bad Request: the photo is not a JPEG, PNG, GIF or WebP image',
  );
  // A reply to a message that is not there: the parts were stored, then removed.
  expectBotError(
    await multipart(platform, bot.token, 'sendMediaGroup', {
      chat_id: roomId,
      reply_to_message_id: '77',
      media: JSON.stringify([item('photo', 'attach://one'), item('photo', 'attach://two')]),
      one: { data: png(5, 5), name: 'one.png' },
      two: { data: png(6, 6), name: 'two.png' },
    }),
    400,
    'Bad Request: message to be replied not found',
  );
  expect(await storage(platform, bot.accountId)).toEqual(before);
});
