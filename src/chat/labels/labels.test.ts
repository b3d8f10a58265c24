// Labels over the real listener: create (name, color), roomCount, owner-only edit and delete (another account's
// label is 404), delete removing it from every room, PUT room labels replacing all, the room list's label filter and
// labelIds, bad input and refusals changing nothing, events to the owner only.
import { newId } from '../../platform/ids.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { labelsPerAccountMax } from './service.js';

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

interface Label {
  id: string;
  name: string;
  color: string;
  ownerId: string;
  roomCount: number;
}

async function label(who: TestAccount, name: string, color = '#112233'): Promise<Label> {
  const res = await fx.api(who, 'POST', '/me/labels', { name, color });
  expectOk(res);
  return res.body.data;
}
const labelRows = (who: TestAccount) => count(platform.db, 'select count(*) as n from labels where owner_id = $1', [who.id]);
const roomLabelRows = (who: TestAccount) => count(platform.db, 'select count(*) as n from room_labels where account_id = $1', [who.id]);
const labelEvents = (who: TestAccount) =>
  count(
    platform.db,
    "select count(*) as n from outbox where (topic like 'label.%' or topic = 'room.labels_changed') and payload->'audience'->'accountIds' ? $1",
    [who.id],
  );
const setLabels = (who: TestAccount, roomId: string, labelIds: string[]) => fx.api(who, 'PUT', `/me/rooms/${roomId}/labels`, { labelIds });
const snapshot = async (who: TestAccount) => {
  const { rows } = await platform.db.query(
    `select (select json_agg(l order by l.id) from labels l where owner_id = $1) as labels,
            (select json_agg(r order by r.label_id, r.room_id) from room_labels r where account_id = $1) as room_labels`,
    [who.id],
  );
  return rows[0];
};

describe('labels', () => {
  test('create answers the label with roomCount 0 and the color in upper case; the list is by name', async () => {
    const me = await tenant.account();
    const res = await fx.api(me, 'POST', '/me/labels', { name: '  Work  ', color: '#a1b2c3' });
    expectOk(res);
    expect(res.body.data).toMatchObject({ name: 'Work', color: '#A1B2C3', ownerId: me.id, roomCount: 0 });
    expect(res.body.data.createdAt).toBe(res.body.data.updatedAt);
    await label(me, 'clients');
    await label(me, 'Admin');
    const list = await fx.api(me, 'GET', '/me/labels');
    expectOk(list);
    expect(list.body.data.map((l: Label) => l.name)).toEqual(['Admin', 'clients', 'Work']);
    expect(list.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    const { rows } = await platform.db.query("select payload from outbox where topic = 'label.created' and payload->>'labelId' = $1", [
      res.body.data.id,
    ]);
    expect(rows.map((r) => r.payload)).toEqual([
      { audience: { kind: 'accounts', accountIds: [me.id] }, labelId: res.body.data.id, name: 'Work', color: '#A1B2C3' },
    ]);
    // Labels are personal: another account lists none of them.
    expect((await fx.api(await tenant.account(), 'GET', '/me/labels')).body.data).toEqual([]);
  });

  test('a name the caller already uses, in any letter case, is 409 label_name_taken; another account may use it', async () => {
    const [me, other] = await Promise.all([tenant.account(), tenant.account()]);
    const work = await label(me, 'Work');
    expectError(await fx.api(me, 'POST', '/me/labels', { name: 'WORK', color: '#000000' }), 409, 'label_name_taken', 'body.name');
    const home = await label(me, 'Home');
    expectError(await fx.api(me, 'PATCH', `/me/labels/${home.id}`, { name: ' work ' }), 409, 'label_name_taken', 'body.name');
    expect(await labelRows(me)).toBe(2);
    expect((await fx.api(me, 'GET', `/me/labels`)).body.data.find((l: Label) => l.id === home.id).name).toBe('Home');
    await label(other, 'Work');
    // Renaming a label to its own name in another case is allowed.
    const recased = await fx.api(me, 'PATCH', `/me/labels/${work.id}`, { name: 'WORK' });
    expectOk(recased);
    expect(recased.body.data.name).toBe('WORK');
  });

  test('bad names and colors are 400 validation_failed and store nothing', async () => {
    const me = await tenant.account();
    for (const color of ['red', '#12345', '#1234567', '123456', '#GGGGGG', '']) {
      expectError(await fx.api(me, 'POST', '/me/labels', { name: 'x', color }), 400, 'validation_failed', 'body.color');
    }
    expectError(await fx.api(me, 'POST', '/me/labels', { name: '   ', color: '#000000' }), 400, 'validation_failed', 'body.name');
    expectError(await fx.api(me, 'POST', '/me/labels', { name: 'x'.repeat(65), color: '#000000' }), 400, 'validation_failed', 'body.name');
    expectError(await fx.api(me, 'POST', '/me/labels', { color: '#000000' }), 400, 'validation_failed', 'body.name');
    expectError(await fx.api(me, 'POST', '/me/labels', { name: 'x', color: '#000000', ownerId: me.id }), 400, 'validation_failed');
    const kept = await label(me, 'Kept', '#ABCDEF');
    expectError(await fx.api(me, 'PATCH', `/me/labels/${kept.id}`, { color: 'blue' }), 400, 'validation_failed', 'body.color');
    expectError(await fx.api(me, 'PATCH', `/me/labels/${kept.id}`, { name: '' }), 400, 'validation_failed', 'body.name');
    expect(await labelRows(me)).toBe(1);
    expect((await fx.api(me, 'GET', '/me/labels')).body.data).toEqual([expect.objectContaining({ name: 'Kept', color: '#ABCDEF' })]);
    expect(await labelEvents(me)).toBe(1);
  });

  test('an account holds at most the maximum of labels: the next is 409 label_limit_reached', async () => {
    const me = await tenant.account();
    await platform.db.query(
      `insert into labels (id, owner_id, name, color, created_at, updated_at)
       select gen_random_uuid(), $1, 'l' || i, '#000000', now(), now() from generate_series(1, $2::int) i`,
      [me.id, labelsPerAccountMax],
    );
    expectError(await fx.api(me, 'POST', '/me/labels', { name: 'one too many', color: '#000000' }), 409, 'label_limit_reached');
    expect(await labelRows(me)).toBe(labelsPerAccountMax);
  });

  test("edit changes only what differs, by the owner only: another account's label is 404 label_not_found", async () => {
    const [me, other] = await Promise.all([tenant.account(), tenant.account()]);
    const mine = await label(me, 'Mine', '#000000');
    const before = await snapshot(me);
    expectError(await fx.api(other, 'PATCH', `/me/labels/${mine.id}`, { name: 'Taken over' }), 404, 'label_not_found');
    expectError(await fx.api(other, 'DELETE', `/me/labels/${mine.id}`), 404, 'label_not_found');
    expectError(await fx.api(me, 'PATCH', `/me/labels/${newId()}`, { name: 'Ghost' }), 404, 'label_not_found');
    expect(await snapshot(me)).toEqual(before);

    const same = await fx.api(me, 'PATCH', `/me/labels/${mine.id}`, { name: 'Mine', color: '#000000' });
    expectOk(same);
    expect(await labelEvents(me)).toBe(1);
    const recolored = await fx.api(me, 'PATCH', `/me/labels/${mine.id}`, { color: '#ff0000' });
    expectOk(recolored);
    expect(recolored.body.data).toMatchObject({ id: mine.id, name: 'Mine', color: '#FF0000' });
    const { rows } = await platform.db.query("select payload from outbox where topic = 'label.updated' and payload->>'labelId' = $1", [
      mine.id,
    ]);
    expect(rows.map((r) => r.payload)).toEqual([
      { audience: { kind: 'accounts', accountIds: [me.id] }, labelId: mine.id, changes: { color: '#FF0000' } },
    ]);
  });

  test('PUT room labels replaces all of them; roomCount follows; empty removes all; a repeat writes nothing', async () => {
    const c = await fx.cast();
    const roomB = await fx.room(c.owner, [c.member]);
    const [a, b, z] = [await label(c.member, 'A'), await label(c.member, 'B'), await label(c.member, 'Z')];
    const set = await setLabels(c.member, c.roomId, [z.id, a.id]);
    expectOk(set);
    expect(set.body.data).toEqual({ roomId: c.roomId, labelIds: [a.id, z.id] });
    expectOk(await setLabels(c.member, roomB, [a.id]));
    const counts = async () =>
      Object.fromEntries((await fx.api(c.member, 'GET', '/me/labels')).body.data.map((l: Label) => [l.name, l.roomCount]));
    expect(await counts()).toEqual({ A: 2, B: 0, Z: 1 });

    const replaced = await setLabels(c.member, c.roomId, [b.id]);
    expectOk(replaced);
    expect(replaced.body.data.labelIds).toEqual([b.id]);
    expect(await counts()).toEqual({ A: 1, B: 1, Z: 0 });
    const events = await labelEvents(c.member);
    expectOk(await setLabels(c.member, c.roomId, [b.id]));
    expect(await labelEvents(c.member)).toBe(events);

    const cleared = await setLabels(c.member, c.roomId, []);
    expectOk(cleared);
    expect(cleared.body.data.labelIds).toEqual([]);
    expect(await counts()).toEqual({ A: 1, B: 0, Z: 0 });
    const { rows } = await platform.db.query(
      "select payload from outbox where topic = 'room.labels_changed' and payload->>'roomId' = $1 order by id",
      [c.roomId],
    );
    expect(rows.map((r) => r.payload.labelIds)).toEqual([[a.id, z.id], [b.id], []]);
    expect(rows.every((r) => JSON.stringify(r.payload.audience) === JSON.stringify({ kind: 'accounts', accountIds: [c.member.id] }))).toBe(
      true,
    );
    // Labels are the caller's own: the owner of the room sees none on it.
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}`)).body.data.labelIds).toEqual([]);
  });

  test('unknown or foreign label ids are 400 naming each body.labelIds[i], and nothing changes', async () => {
    const c = await fx.cast();
    const mine = await label(c.member, 'Mine');
    const theirs = await label(c.owner, 'Theirs');
    expectOk(await setLabels(c.member, c.roomId, [mine.id]));
    const before = await snapshot(c.member);
    const events = await labelEvents(c.member);
    const res = await setLabels(c.member, c.roomId, [mine.id, theirs.id, newId()]);
    expectError(res, 400, 'validation_failed', ['body.labelIds[1]', 'body.labelIds[2]']);
    expect(res.body.error.details.map((d: { location: string }) => d.location)).toEqual(['body.labelIds[1]', 'body.labelIds[2]']);
    expectError(await setLabels(c.member, c.roomId, [mine.id, mine.id]), 400, 'validation_failed');
    expectError(await fx.api(c.member, 'PUT', `/me/rooms/${c.roomId}/labels`, {}), 400, 'validation_failed', 'body.labelIds');
    expectError(await setLabels(c.member, c.roomId, ['nope']), 400, 'validation_failed');
    expect(await snapshot(c.member)).toEqual(before);
    expect(await labelEvents(c.member)).toBe(events);
  });

  test('a room the caller is not a member of is 404 room_not_found, nothing changes', async () => {
    const c = await fx.cast();
    const mine = await label(c.outsider, 'Outside');
    expectError(await setLabels(c.outsider, c.roomId, [mine.id]), 404, 'room_not_found');
    expectError(await setLabels(c.outsider, newId(), [mine.id]), 404, 'room_not_found');
    expect(await roomLabelRows(c.outsider)).toBe(0);
  });

  test('delete removes the label from every room, with one event naming them; a second delete is 404', async () => {
    const c = await fx.cast();
    const roomB = await fx.room(c.owner, [c.member]);
    const gone = await label(c.member, 'Gone');
    const stays = await label(c.member, 'Stays');
    expectOk(await setLabels(c.member, c.roomId, [gone.id, stays.id]));
    expectOk(await setLabels(c.member, roomB, [gone.id]));
    const res = await fx.api(c.member, 'DELETE', `/me/labels/${gone.id}`);
    expectOk(res);
    expect(res.body.data).toEqual({ labelId: gone.id, status: 'deleted', roomCount: 2 });
    expect(await count(platform.db, 'select count(*) as n from room_labels where label_id = $1', [gone.id])).toBe(0);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}`)).body.data.labelIds).toEqual([stays.id]);
    const { rows } = await platform.db.query("select payload from outbox where topic = 'label.deleted' and payload->>'labelId' = $1", [
      gone.id,
    ]);
    expect(rows.map((r) => r.payload)).toEqual([
      { audience: { kind: 'accounts', accountIds: [c.member.id] }, labelId: gone.id, roomIds: [c.roomId, roomB].sort() },
    ]);
    expectError(await fx.api(c.member, 'DELETE', `/me/labels/${gone.id}`), 404, 'label_not_found');
  });

  test("the room list filters by the caller's label and carries labelIds; another account's label matches nothing", async () => {
    const c = await fx.cast();
    const roomB = await fx.room(c.owner, [c.member]);
    const roomC = await fx.room(c.owner, [c.member]);
    const urgent = await label(c.member, 'Urgent');
    const later = await label(c.member, 'Later');
    const ownersLabel = await label(c.owner, 'Urgent');
    expectOk(await setLabels(c.member, c.roomId, [urgent.id]));
    expectOk(await setLabels(c.member, roomC, [urgent.id, later.id]));
    expectOk(await setLabels(c.owner, roomB, [ownersLabel.id]));

    const filtered = await fx.api(c.member, 'GET', `/rooms?labelId=${urgent.id}`);
    expectOk(filtered);
    expect(filtered.body.data.map((r: { id: string }) => r.id).sort()).toEqual([c.roomId, roomC].sort());
    expect(filtered.body.data.find((r: { id: string }) => r.id === roomC).labelIds).toEqual([later.id, urgent.id]);
    // Paging keeps the filter.
    const first = await fx.api(c.member, 'GET', `/rooms?labelId=${urgent.id}&limit=1`);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await fx.api(
      c.member,
      'GET',
      `/rooms?labelId=${urgent.id}&limit=1&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`,
    );
    expect([first.body.data[0].id, second.body.data[0].id].sort()).toEqual([c.roomId, roomC].sort());
    expect(second.body.meta.hasMore).toBe(false);

    expect((await fx.api(c.member, 'GET', `/rooms?labelId=${ownersLabel.id}`)).body.data).toEqual([]);
    expect((await fx.api(c.member, 'GET', `/rooms?labelId=${newId()}`)).body.data).toEqual([]);
    const all = await fx.api(c.member, 'GET', '/rooms');
    expect(all.body.data.find((r: { id: string }) => r.id === roomB).labelIds).toEqual([]);
    // The filter combines with archived: an archived labelled room shows only with archived=true.
    expectOk(await fx.api(c.member, 'POST', `/rooms/${roomC}/archive`));
    expect((await fx.api(c.member, 'GET', `/rooms?labelId=${urgent.id}`)).body.data.map((r: { id: string }) => r.id)).toEqual([c.roomId]);
    expect((await fx.api(c.member, 'GET', `/rooms?labelId=${urgent.id}&archived=true`)).body.data.map((r: { id: string }) => r.id)).toEqual(
      [roomC],
    );
    expectError(await fx.api(c.member, 'GET', '/rooms?labelId=not-a-uuid'), 400, 'validation_failed', 'query.labelId');
  });

  test("leaving a room takes the caller's labels off it, so roomCount counts rooms the caller is in", async () => {
    const c = await fx.cast();
    const tag = await label(c.member, 'Tag');
    const ownersTag = await label(c.owner, 'Tag');
    expectOk(await setLabels(c.member, c.roomId, [tag.id]));
    expectOk(await setLabels(c.owner, c.roomId, [ownersTag.id]));
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/leave`));
    expect((await fx.api(c.member, 'GET', '/me/labels')).body.data).toEqual([expect.objectContaining({ id: tag.id, roomCount: 0 })]);
    expect((await fx.api(c.owner, 'GET', '/me/labels')).body.data).toEqual([expect.objectContaining({ id: ownersTag.id, roomCount: 1 })]);
    expectOk(await fx.api(c.owner, 'DELETE', `/rooms/${c.roomId}`));
    expect((await fx.api(c.owner, 'GET', '/me/labels')).body.data).toEqual([expect.objectContaining({ id: ownersTag.id, roomCount: 0 })]);
  });

  test("concurrent replaces of one room's labels end with exactly one of the requested sets", async () => {
    const c = await fx.cast();
    const labels = await Promise.all(['1', '2', '3', '4', '5', '6'].map((n) => label(c.member, `L${n}`)));
    const sets = [
      [0, 1],
      [2, 3],
      [4, 5],
      [0, 5],
      [1, 2, 3],
    ].map((ix) => ix.map((i) => labels[i]!.id));
    const results = await Promise.all(sets.map((s) => setLabels(c.member, c.roomId, s)));
    for (const r of results) expectOk(r);
    const { rows } = await platform.db.query<{ label_id: string }>(
      'select label_id from room_labels where account_id = $1 and room_id = $2',
      [c.member.id, c.roomId],
    );
    const final = rows.map((r) => r.label_id).sort();
    expect(sets.map((s) => [...s].sort())).toContainEqual(final);
  });
});
