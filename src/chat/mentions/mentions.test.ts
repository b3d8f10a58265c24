// Mentions over the real listener: parsing on send, reply and edit into entities; who is notified (members only,
// @all / @here for owners and admins); the room list's mention count (muted rooms too); the inbox with its read flag,
// paging and marks; an edit or a recall withdrawing mentions.
import { chatFixtures, type RoomCast } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;
let tenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
});
afterAll(async () => {
  await platform.stop();
});

let names = 0;
/** Gives the account a fresh username and answers it. */
async function named(who: TestAccount, prefix = 'user'): Promise<string> {
  const name = `${prefix}${++names}x${Math.random().toString(36).slice(2, 8)}`;
  await platform.db.query('update accounts set username = $2 where id = $1', [who.id, name]);
  return name;
}

const mentionsOf = (who: TestAccount) => count(platform.db, 'select count(*) as n from mentions where account_id = $1', [who.id]);
const inbox = (who: TestAccount, query = '') => fx.api(who, 'GET', `/me/mentions${query}`);
const roomOf = async (who: TestAccount, roomId: string) => (await fx.api(who, 'GET', `/rooms/${roomId}`)).body.data;
const sendText = (who: TestAccount, roomId: string, body: Record<string, unknown>) =>
  fx.api(who, 'POST', `/rooms/${roomId}/messages`, body);

async function castWithNames(): Promise<RoomCast & { memberName: string; adminName: string; outsiderName: string }> {
  const c = await fx.cast();
  return { ...c, memberName: await named(c.member), adminName: await named(c.admin), outsiderName: await named(c.outsider) };
}

describe('parsing on send', () => {
  test('@username (any case) and <@id> of members become entities; unknown names and non-members stay plain text', async () => {
    const c = await castWithNames();
    const text = `hi @${c.memberName.toUpperCase()}, <@${c.admin.id}> and @${c.outsiderName} @nobody-here <@${c.outsider.id}>`;
    const res = await sendText(c.owner, c.roomId, { text });
    expectOk(res, 201);
    const entities = res.body.data.entities;
    expect(entities).toEqual([
      { type: 'mention', offset: 3, length: c.memberName.length + 1, accountId: c.member.id },
      { type: 'mention', offset: c.memberName.length + 6, length: 39, accountId: c.admin.id },
    ]);
    expect(text.slice(entities[1].offset, entities[1].offset + entities[1].length)).toBe(`<@${c.admin.id}>`);
    // the same entities on GET, and one inbox row for each member named; the outsider has none
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages/${res.body.data.id}`)).body.data.entities).toEqual(entities);
    expect(await mentionsOf(c.member)).toBe(1);
    expect(await mentionsOf(c.admin)).toBe(1);
    expect(await mentionsOf(c.outsider)).toBe(0);
    const [event] = await fx.payloads('mention.created', res.body.data.id);
    expect(event).toMatchObject({ roomId: c.roomId, messageId: res.body.data.id, senderId: c.owner.id });
    expect((event!.audience as { accountIds: string[] }).accountIds.sort()).toEqual([c.member.id, c.admin.id].sort());
  });

  test('a text without @ has no entities and writes no mention; a self-mention is an entity that notifies nobody', async () => {
    const c = await castWithNames();
    const plain = await sendText(c.owner, c.roomId, { text: 'no mentions here' });
    expect(plain.body.data.entities).toEqual([]);
    const self = await sendText(c.member, c.roomId, { text: `note to @${c.memberName}` });
    expect(self.body.data.entities).toHaveLength(1);
    expect(await mentionsOf(c.member)).toBe(0);
    expect(await fx.events('mention.created', { messageId: self.body.data.id })).toBe(0);
  });

  test('@all and @here from an owner or admin notify every member but the sender; from a member they are plain text', async () => {
    const c = await castWithNames();
    const byAdmin = await sendText(c.admin, c.roomId, { text: '@all and @here: standup' });
    expect(byAdmin.body.data.entities).toEqual([
      { type: 'mention', offset: 0, length: 4, broadcast: 'all' },
      { type: 'mention', offset: 9, length: 5, broadcast: 'here' },
    ]);
    expect(await mentionsOf(c.owner)).toBe(1);
    expect(await mentionsOf(c.member)).toBe(1);
    expect(await mentionsOf(c.admin)).toBe(0);
    const byMember = await sendText(c.member, c.roomId, { text: '@all look' });
    expect(byMember.body.data.entities).toEqual([]);
    expect(await mentionsOf(c.owner)).toBe(1);
  });

  test('a reply and a send with a clientMessageId record mentions too; the retry notifies nobody again', async () => {
    const c = await castWithNames();
    const root = await fx.send(c.owner, c.roomId, 'root');
    const reply = await sendText(c.owner, c.roomId, { text: `@${c.memberName} see above`, threadRootId: root.id });
    expectOk(reply, 201);
    expect(reply.body.data.entities).toEqual([{ type: 'mention', offset: 0, length: c.memberName.length + 1, accountId: c.member.id }]);
    expect(await mentionsOf(c.member)).toBe(1);
    const first = await sendText(c.owner, c.roomId, { text: `@${c.memberName} again`, clientMessageId: 'cm-1' });
    const retry = await sendText(c.owner, c.roomId, { text: `@${c.memberName} again`, clientMessageId: 'cm-1' });
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(retry.body.data.entities).toEqual(first.body.data.entities);
    expect(await mentionsOf(c.member)).toBe(2);
    expect(await fx.events('mention.created', { messageId: first.body.data.id })).toBe(1);
  });
});

describe('counts, inbox and marks', () => {
  test('the room list counts unread mentions, muted or not; reading the room reads them', async () => {
    const c = await castWithNames();
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/mute`, {}));
    await fx.send(c.owner, c.roomId, `@${c.memberName} one`);
    const second = await fx.send(c.owner, c.roomId, `<@${c.member.id}> two`);
    await fx.send(c.owner, c.roomId, 'no mention');
    const room = await roomOf(c.member, c.roomId);
    expect(room).toMatchObject({ muted: true, mentionCount: 2, unreadCount: 3 });
    const listed = (await fx.api(c.member, 'GET', '/rooms')).body.data.find((r: { id: string }) => r.id === c.roomId);
    expect(listed.mentionCount).toBe(2);
    expect((await roomOf(c.owner, c.roomId)).mentionCount).toBe(0);
    const read = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/read`, { messageId: second.id });
    expectOk(read);
    expect(read.body.data.mentionCount).toBe(0);
    const items = (await inbox(c.member)).body.data;
    expect(items.map((i: { read: boolean }) => i.read)).toEqual([true, true]);
  });

  test('the inbox: newest first with the room, cursor paging, unreadOnly, one mark and the mark of a room', async () => {
    const c = await castWithNames();
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await fx.send(c.owner, c.roomId, `@${c.memberName} number ${i}`));
    const first = await inbox(c.member, '?limit=2');
    expectOk(first);
    expect(first.body.data.map((i: { message: { id: string } }) => i.message.id)).toEqual([sent[2]!.id, sent[1]!.id]);
    expect(first.body.data[0]).toMatchObject({
      read: false,
      room: { id: c.roomId, type: 'GROUP', name: 'Fixture' },
      message: { text: `@${c.memberName} number 2` },
    });
    expect(first.body.meta.hasMore).toBe(true);
    const next = await inbox(c.member, `?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(next.body.data.map((i: { message: { id: string } }) => i.message.id)).toEqual([sent[0]!.id]);
    expectError(await inbox(c.admin, `?cursor=${encodeURIComponent(first.body.meta.nextCursor)}`), 400, 'invalid_cursor');

    expectOk(await fx.api(c.member, 'POST', `/me/mentions/${sent[1]!.id}/read`));
    expectOk(await fx.api(c.member, 'POST', `/me/mentions/${sent[1]!.id}/read`));
    expect(await fx.events('mention.read', { roomId: c.roomId })).toBe(1);
    expect((await inbox(c.member, '?unreadOnly=true')).body.data.map((i: { message: { id: string } }) => i.message.id)).toEqual([
      sent[2]!.id,
      sent[0]!.id,
    ]);
    expect((await roomOf(c.member, c.roomId)).mentionCount).toBe(2);
    expectError(await fx.api(c.admin, 'POST', `/me/mentions/${sent[1]!.id}/read`), 404, 'mention_not_found');

    expectError(await fx.api(c.outsider, 'POST', '/me/mentions/read', { roomId: c.roomId }), 404, 'room_not_found');
    const all = await fx.api(c.member, 'POST', '/me/mentions/read', { roomId: c.roomId });
    expect(all.body.data).toEqual({ marked: 2 });
    expect((await roomOf(c.member, c.roomId)).mentionCount).toBe(0);
    expect((await fx.api(c.member, 'POST', '/me/mentions/read', {})).body.data).toEqual({ marked: 0 });
  });

  test('a room the member left no longer shows in the inbox', async () => {
    const c = await castWithNames();
    await fx.send(c.owner, c.roomId, `@${c.memberName} bye`);
    expect((await inbox(c.member)).body.data).toHaveLength(1);
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/leave`));
    expect((await inbox(c.member)).body.data).toHaveLength(0);
  });
});

describe('edit and recall', () => {
  test('an edit recomputes: a removed mention leaves the inbox (mention.removed), a new one notifies, a kept one stays as it was', async () => {
    const c = await castWithNames();
    const m = await fx.send(c.owner, c.roomId, `@${c.memberName} and @${c.adminName}`);
    expectOk(await fx.api(c.admin, 'POST', `/me/mentions/${m.id}/read`));
    const edited = await fx.api(c.owner, 'PATCH', `/rooms/${c.roomId}/messages/${m.id}`, {
      text: `only @${c.adminName} now, <@${c.outsider.id}>`,
    });
    expectOk(edited);
    expect(edited.body.data.entities).toEqual([{ type: 'mention', offset: 5, length: c.adminName.length + 1, accountId: c.admin.id }]);
    expect(await mentionsOf(c.member)).toBe(0);
    const [removed] = await fx.payloads('mention.removed', m.id);
    expect(removed!.audience).toEqual({ kind: 'accounts', accountIds: [c.member.id] });
    expect((await inbox(c.admin)).body.data[0].read).toBe(true);
    expect(await fx.events('mention.created', { messageId: m.id })).toBe(1);

    const again = await fx.api(c.owner, 'PATCH', `/rooms/${c.roomId}/messages/${m.id}`, { text: `@${c.memberName} back` });
    expect(again.body.data.entities).toHaveLength(1);
    expect(await mentionsOf(c.member)).toBe(1);
    expect(await mentionsOf(c.admin)).toBe(0);
    expect(await fx.events('mention.created', { messageId: m.id })).toBe(2);
  });

  test('a recall withdraws every mention and empties the entities', async () => {
    const c = await castWithNames();
    const m = await fx.send(c.owner, c.roomId, `@${c.memberName} oops`);
    const recalled = await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${m.id}/recall`);
    expectOk(recalled);
    expect(recalled.body.data.entities).toEqual([]);
    expect(await mentionsOf(c.member)).toBe(0);
    expect(await fx.events('mention.removed', { messageId: m.id })).toBe(1);
    expect((await roomOf(c.member, c.roomId)).mentionCount).toBe(0);
  });
});
