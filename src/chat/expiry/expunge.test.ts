// Expunging messages for good on a real database, Redis and file media store: what hangs off a message goes with
// it, the thread summary and banner are corrected, one message.expired per room, the file's bytes go after commit.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tus from 'tus-js-client';
import { systemClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { mediaStore } from '../../core/media/store.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform } from '../../../test/support/platform.js';
import { expungeMessages, type ExpungeDeps } from './expunge.js';

let dataDir: string;
let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;
let deps: ExpungeDeps;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'expunge-test-'));
  platform = await startTestPlatform({ services: ['chat'], dataDir, uploadAllowedTypes: ['text/plain'] });
  fx = chatFixtures(platform, await platform.tenant());
  deps = { sql: platform.db, media: mediaStore(platform.config.media, dataDir), clock: systemClock };
});
afterAll(async () => {
  await platform?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const rowsOf = (table: string, messageId: string) =>
  count(platform.db, `select count(*) as n from ${table} where message_id = $1`, [messageId]);
const expired = (roomId: string) =>
  platform.db.query<{ payload: { roomId: string; messageIds: string[]; reason: string } }>(
    "select payload from outbox where topic = 'message.expired' and payload->>'roomId' = $1 order by id",
    [roomId],
  );

async function upload(who: TestAccount, data: Buffer): Promise<string> {
  const res = await fx.api(who, 'POST', '/files/upload-session', { fileName: 'a.txt', contentType: 'text/plain', size: data.length });
  expectOk(res);
  const s = res.body.data as { uploadId: string; uploadUrl: string; headers: Record<string, string> };
  await new Promise<void>((resolve, reject) => {
    const u = new tus.Upload(data, {
      endpoint: s.uploadUrl,
      headers: s.headers,
      retryDelays: [],
      metadata: { filetype: 'text/plain' },
      onError: reject,
      onSuccess: () => resolve(),
    });
    u.start();
  });
  return s.uploadId;
}

describe('expungeMessages', () => {
  test('a message with its reactions, pins, mention, saved card and banner goes; the others stay; a repeat does nothing', async () => {
    const c = await fx.cast();
    const gone = await fx.send(c.owner, c.roomId, `look <@${c.member.id}>`);
    const kept = await fx.send(c.owner, c.roomId, 'stays');
    const path = `/rooms/${c.roomId}/messages/${gone.id}`;
    expectOk(await fx.api(c.member, 'POST', `${path}/reactions`, { emoji: '👍' }));
    expectOk(await fx.api(c.owner, 'POST', `${path}/pin`));
    expectOk(await fx.api(c.member, 'POST', `${path}/pin?scope=PERSONAL`));
    expectOk(await fx.api(c.owner, 'POST', `${path}/snap`));
    expectOk(await fx.api(c.member, 'POST', '/me/saved', { roomId: c.roomId, messageId: gone.id }));
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${kept.id}/reactions`, { emoji: '👍' }));
    expect(await rowsOf('mentions', gone.id)).toBe(1);

    expect(await expungeMessages(deps, [gone.id, newId()], 'retention')).toBe(1);

    for (const table of ['message_reactions', 'room_pins', 'personal_pins', 'mentions', 'saved_messages']) {
      expect([table, await rowsOf(table, gone.id)]).toEqual([table, 0]);
    }
    expect(await count(platform.db, 'select count(*) as n from messages where id = $1', [gone.id])).toBe(0);
    expect(await rowsOf('message_reactions', kept.id)).toBe(1);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages/${gone.id}`)).status).toBe(404);
    const room = await platform.db.query('select snap_message_id from rooms where id = $1', [c.roomId]);
    expect(room.rows[0].snap_message_id).toBeNull();
    expect((await expired(c.roomId)).rows.map((r) => r.payload)).toEqual([
      { roomId: c.roomId, messageIds: [gone.id], reason: 'retention', audience: { kind: 'room', roomId: c.roomId } },
    ]);

    expect(await expungeMessages(deps, [gone.id], 'retention')).toBe(0);
    expect((await expired(c.roomId)).rows).toHaveLength(1);
  });

  test("a deleted reply leaves its root's summary counting the replies that are left", async () => {
    const c = await fx.cast();
    const root = await fx.send(c.owner, c.roomId, 'root');
    const reply = (text: string) => fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages`, { text, threadRootId: root.id });
    const first = (await reply('one')).body.data as { id: string; createdAt: string };
    const second = (await reply('two')).body.data as { id: string };
    expect(await expungeMessages(deps, [second.id], 'erasure')).toBe(1);
    const r = await platform.db.query('select reply_count, last_reply_id, last_reply_at from messages where id = $1', [root.id]);
    expect(r.rows[0]).toEqual({ reply_count: 1, last_reply_id: first.id, last_reply_at: new Date(first.createdAt) });
    expect((await expired(c.roomId)).rows[0]!.payload).toMatchObject({ messageIds: [second.id], reason: 'erasure' });

    expect(await expungeMessages(deps, [first.id], 'erasure')).toBe(1);
    const empty = await platform.db.query('select reply_count, last_reply_id from messages where id = $1', [root.id]);
    expect(empty.rows[0]).toEqual({ reply_count: 0, last_reply_id: null });
  });

  test('one event per room of the batch; more than 500 ids is refused', async () => {
    const [a, b] = [await fx.cast(), await fx.cast()];
    const ids = [(await fx.send(a.owner, a.roomId)).id, (await fx.send(a.owner, a.roomId)).id, (await fx.send(b.owner, b.roomId)).id];
    expect(await expungeMessages(deps, ids, 'retention')).toBe(3);
    expect((await expired(a.roomId)).rows.map((r) => r.payload.messageIds)).toEqual([[ids[0], ids[1]].sort()]);
    expect((await expired(b.roomId)).rows.map((r) => r.payload.messageIds)).toEqual([[ids[2]]]);
    await expect(
      expungeMessages(
        deps,
        Array.from({ length: 501 }, () => newId()),
        'retention',
      ),
    ).rejects.toThrow(RangeError);
  });

  test("an attachment's bytes are removed after the commit and its upload marked purged", async () => {
    const c = await fx.cast();
    const uploadId = await upload(c.owner, Buffer.from('some bytes'));
    const res = await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages`, { text: 'file', attachments: [{ uploadId }] });
    expectOk(res, 201);
    expect(existsSync(join(dataDir, 'uploads', uploadId))).toBe(true);
    expect(await expungeMessages(deps, [res.body.data.id], 'retention')).toBe(1);
    expect(existsSync(join(dataDir, 'uploads', uploadId))).toBe(false);
    expect(await count(platform.db, 'select count(*) as n from uploads where id = $1 and purged_at is not null', [uploadId])).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'upload.purged' and payload->>'uploadId' = $1", [uploadId]),
    ).toBe(1);
  });
});
