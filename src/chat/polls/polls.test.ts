// Polls over the real listener: creation with its POLL message, results, votes replacing the whole previous vote,
// single and multiple choice, unknown options, closing (creator or owner/admin, idempotent), closed polls refusing
// votes, the membership gate, events, recall closing the poll, and concurrent votes agreeing with a recount.
import { newId } from '../../platform/ids.js';
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

interface Poll {
  id: string;
  roomId: string;
  messageId: string;
  creatorId: string;
  question: string;
  options: Array<{ id: string; text: string; votes: number }>;
  multipleChoice: boolean;
  closed: boolean;
  closedAt: string | null;
  closedBy: string | null;
  myVote: string[];
  totalVoters: number;
}

async function createPoll(who: TestAccount, roomId: string, body: Record<string, unknown> = {}): Promise<Poll> {
  const res = await fx.api(who, 'POST', `/rooms/${roomId}/polls`, { question: 'Lunch?', options: ['Pizza', 'Sushi', 'Salad'], ...body });
  expectOk(res, 201);
  return res.body.data;
}
const vote = (who: TestAccount, pollId: string, optionIds: string[]) => fx.api(who, 'POST', `/polls/${pollId}/votes`, { optionIds });
const votesOf = (poll: Poll) => Object.fromEntries(poll.options.map((o) => [o.text, o.votes]));
const ballots = (pollId: string) => count(platform.db, 'select count(*) as n from poll_ballots where poll_id = $1', [pollId]);
const pollEvents = (pollId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic like 'poll.%' and payload->>'pollId' = $1", [pollId]);
const ballotsSnapshot = async (pollId: string) =>
  (
    await platform.db.query(
      'select json_agg(b order by account_id) as b, (select closed_at from polls where id = $1) as closed from poll_ballots b where poll_id = $1',
      [pollId],
    )
  ).rows[0];

/** Counts straight from the ballots, for comparison with the API's. */
async function recount(pollId: string): Promise<{ perOption: Record<string, number>; voters: number }> {
  const { rows } = await platform.db.query<{ id: string; n: number }>(
    `select o.id, (select count(*)::int from poll_ballots b, unnest(b.option_ids) chosen where b.poll_id = o.poll_id and chosen = o.id) as n
       from poll_options o where o.poll_id = $1`,
    [pollId],
  );
  return { perOption: Object.fromEntries(rows.map((r) => [r.id, r.n])), voters: await ballots(pollId) };
}

describe('creating', () => {
  test('201 with Location; the poll is announced by a POLL message; options keep their order; events', async () => {
    const c = await fx.cast();
    const res = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/polls`, { question: '  Where to?  ', options: [' North', 'South '] });
    expectOk(res, 201);
    const poll: Poll = res.body.data;
    expect(res.headers.get('location')).toBe(`/api/v1/polls/${poll.id}`);
    expect(poll).toMatchObject({
      roomId: c.roomId,
      creatorId: c.member.id,
      question: 'Where to?',
      multipleChoice: false,
      closed: false,
      closedAt: null,
      closedBy: null,
      myVote: [],
      totalVoters: 0,
    });
    expect(poll.options.map((o) => [o.text, o.votes])).toEqual([
      ['North', 0],
      ['South', 0],
    ]);

    const message = await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages/${poll.messageId}`);
    expectOk(message);
    expect(message.body.data).toMatchObject({ type: 'POLL', text: 'Where to?', pollId: poll.id, senderId: c.member.id });
    const scroll = await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages`);
    expect(scroll.body.data.at(-1)).toMatchObject({ id: poll.messageId, type: 'POLL', pollId: poll.id });
    // An ordinary message carries no pollId.
    const text = await fx.send(c.owner, c.roomId, 'plain');
    expect('pollId' in (await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages/${text.id}`)).body.data).toBe(false);
    // It counts as an unread message for the others, like any message.
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}`)).body.data.unreadCount).toBe(1);

    const { rows } = await platform.db.query("select topic, payload from outbox where payload->>'messageId' = $1 order by id", [
      poll.messageId,
    ]);
    expect(rows.map((r) => r.topic)).toEqual(['message.created', 'poll.created']);
    expect(rows[0].payload).toMatchObject({
      audience: { kind: 'room', roomId: c.roomId },
      type: 'POLL',
      pollId: poll.id,
      senderId: c.member.id,
    });
    expect(rows[1].payload).toEqual({
      audience: { kind: 'room', roomId: c.roomId },
      pollId: poll.id,
      roomId: c.roomId,
      messageId: poll.messageId,
      creatorId: c.member.id,
      question: 'Where to?',
      options: poll.options.map((o) => ({ id: o.id, text: o.text })),
      multipleChoice: false,
    });
  });

  test('bad input is 400 naming the field, and nothing is stored', async () => {
    const c = await fx.cast();
    const attempts: Array<[Record<string, unknown>, string]> = [
      [{ question: 'Q', options: ['only one'] }, 'body.options'],
      [{ question: 'Q', options: Array.from({ length: 11 }, (_, i) => `o${i}`) }, 'body.options'],
      [{ question: 'Q', options: ['Same', ' same '] }, 'body.options[1]'],
      [{ question: 'Q', options: ['a', '   '] }, 'body.options.1'],
      [{ question: '   ', options: ['a', 'b'] }, 'body.question'],
      [{ question: 'q'.repeat(301), options: ['a', 'b'] }, 'body.question'],
      [{ question: 'Q', options: ['a', 'o'.repeat(101)] }, 'body.options.1'],
      [{ question: 'Q', options: ['a', 'b'], multipleChoice: 'yes' }, 'body.multipleChoice'],
      [{ options: ['a', 'b'] }, 'body.question'],
    ];
    for (const [body, location] of attempts) {
      const res = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/polls`, body);
      expectError(res, 400, 'validation_failed');
      expect(res.body.error.details.map((d: { location: string }) => d.location)).toEqual([location]);
    }
    expect(await count(platform.db, 'select count(*) as n from polls where room_id = $1', [c.roomId])).toBe(0);
    expect(await count(platform.db, "select count(*) as n from messages where room_id = $1 and type = 'POLL'", [c.roomId])).toBe(0);
  });

  test('a room the caller is not a member of (or no room) is 404 room_not_found', async () => {
    const c = await fx.cast();
    expectError(
      await fx.api(c.outsider, 'POST', `/rooms/${c.roomId}/polls`, { question: 'Q', options: ['a', 'b'] }),
      404,
      'room_not_found',
    );
    expectError(await fx.api(c.member, 'POST', `/rooms/${newId()}/polls`, { question: 'Q', options: ['a', 'b'] }), 404, 'room_not_found');
    expect(await count(platform.db, 'select count(*) as n from polls where room_id = $1', [c.roomId])).toBe(0);
    const { rows } = await platform.db.query('select last_seq from rooms where id = $1', [c.roomId]);
    expect(rows[0].last_seq).toBe(0);
  });
});

describe('voting', () => {
  test('single choice: a vote replaces the previous one; results count voters per option', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.owner, c.roomId);
    const [pizza, sushi, salad] = poll.options.map((o) => o.id) as [string, string, string];
    const first = await vote(c.member, poll.id, [pizza]);
    expectOk(first);
    expect(first.body.data).toMatchObject({ myVote: [pizza], totalVoters: 1 });
    expect(votesOf(first.body.data)).toEqual({ Pizza: 1, Sushi: 0, Salad: 0 });
    expectOk(await vote(c.admin, poll.id, [pizza]));
    const changed = await vote(c.member, poll.id, [salad]);
    expect(changed.body.data.myVote).toEqual([salad]);
    expect(votesOf(changed.body.data)).toEqual({ Pizza: 1, Sushi: 0, Salad: 1 });
    expect(changed.body.data.totalVoters).toBe(2);
    // Each caller sees its own vote.
    const asOwner = await fx.api(c.owner, 'GET', `/polls/${poll.id}`);
    expectOk(asOwner);
    expect(asOwner.body.data).toMatchObject({ myVote: [], totalVoters: 2 });
    expect((await fx.api(c.admin, 'GET', `/polls/${poll.id}`)).body.data.myVote).toEqual([pizza]);
    // More than one option on a single-choice poll is refused and changes nothing.
    const before = await ballotsSnapshot(poll.id);
    expectError(await vote(c.member, poll.id, [pizza, sushi]), 400, 'validation_failed', 'body.optionIds');
    expect(await ballotsSnapshot(poll.id)).toEqual(before);
  });

  test('multiple choice: the whole set is replaced, myVote in option order; the same vote again writes nothing', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.owner, c.roomId, { multipleChoice: true });
    const [pizza, sushi, salad] = poll.options.map((o) => o.id) as [string, string, string];
    const first = await vote(c.member, poll.id, [salad, pizza]);
    expect(first.body.data.myVote).toEqual([pizza, salad]);
    expect(votesOf(first.body.data)).toEqual({ Pizza: 1, Sushi: 0, Salad: 1 });
    const replaced = await vote(c.member, poll.id, [sushi]);
    expect(replaced.body.data.myVote).toEqual([sushi]);
    expect(votesOf(replaced.body.data)).toEqual({ Pizza: 0, Sushi: 1, Salad: 0 });
    expect(replaced.body.data.totalVoters).toBe(1);
    const events = await count(platform.db, "select count(*) as n from outbox where topic = 'poll.voted' and payload->>'pollId' = $1", [
      poll.id,
    ]);
    expect(events).toBe(2);
    expectOk(await vote(c.member, poll.id, [sushi]));
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'poll.voted' and payload->>'pollId' = $1", [poll.id]),
    ).toBe(2);
    const { rows } = await platform.db.query("select payload from outbox where topic = 'poll.voted' and payload->>'pollId' = $1 limit 1", [
      poll.id,
    ]);
    // Votes are private: the event says the results moved, not who voted what.
    expect(rows[0].payload).toEqual({ audience: { kind: 'room', roomId: c.roomId }, pollId: poll.id, roomId: c.roomId });
  });

  test('an unknown option, or one of another poll, is 400 naming body.optionIds[i]; nothing changes', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.owner, c.roomId, { multipleChoice: true });
    const other = await createPoll(c.owner, c.roomId);
    const [pizza] = poll.options.map((o) => o.id) as [string];
    expectOk(await vote(c.member, poll.id, [pizza]));
    const before = await ballotsSnapshot(poll.id);
    const res = await vote(c.member, poll.id, [pizza, other.options[0]!.id, newId()]);
    expectError(res, 400, 'validation_failed');
    expect(res.body.error.details.map((d: { location: string }) => d.location)).toEqual(['body.optionIds[1]', 'body.optionIds[2]']);
    expectError(await vote(c.member, poll.id, []), 400, 'validation_failed', 'body.optionIds');
    expectError(await vote(c.member, poll.id, [pizza, pizza]), 400, 'validation_failed', 'body.optionIds');
    expectError(await vote(c.member, poll.id, [pizza.toUpperCase(), pizza]), 400, 'validation_failed', 'body.optionIds');
    expectError(await fx.api(c.member, 'POST', `/polls/${poll.id}/votes`, {}), 400, 'validation_failed', 'body.optionIds');
    expectError(await vote(c.member, poll.id, ['pizza']), 400, 'validation_failed');
    expect(await ballotsSnapshot(poll.id)).toEqual(before);
    expect(await ballots(other.id)).toBe(0);
  });

  test('the poll of a room the caller is not in, or no poll, is 404 room_not_found; nothing changes', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.owner, c.roomId);
    expectError(await fx.api(c.outsider, 'GET', `/polls/${poll.id}`), 404, 'room_not_found');
    expectError(await vote(c.outsider, poll.id, [poll.options[0]!.id]), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'POST', `/polls/${poll.id}/close`), 404, 'room_not_found');
    expectError(await fx.api(c.member, 'GET', `/polls/${newId()}`), 404, 'room_not_found');
    expectError(await vote(c.member, newId(), [poll.options[0]!.id]), 404, 'room_not_found');
    expect(await ballots(poll.id)).toBe(0);
    expect((await fx.api(c.member, 'GET', `/polls/${poll.id}`)).body.data.closed).toBe(false);
    // A member who leaves loses access; the vote it cast stays counted.
    expectOk(await vote(c.member, poll.id, [poll.options[1]!.id]));
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/leave`));
    expectError(await fx.api(c.member, 'GET', `/polls/${poll.id}`), 404, 'room_not_found');
    expect((await fx.api(c.owner, 'GET', `/polls/${poll.id}`)).body.data.totalVoters).toBe(1);
  });
});

describe('closing', () => {
  async function closedBy(c: RoomCast, creator: TestAccount, closer: TestAccount): Promise<Poll> {
    const poll = await createPoll(creator, c.roomId);
    const res = await fx.api(closer, 'POST', `/polls/${poll.id}/close`);
    expectOk(res);
    return res.body.data;
  }

  test('the creator, an owner or an admin may close; another member gets 403 forbidden and the poll stays open', async () => {
    const c = await fx.cast();
    const byCreator = await closedBy(c, c.member, c.member);
    expect(byCreator).toMatchObject({ closed: true, closedBy: c.member.id });
    expect(typeof byCreator.closedAt).toBe('string');
    expect((await closedBy(c, c.member, c.owner)).closedBy).toBe(c.owner.id);
    expect((await closedBy(c, c.member, c.admin)).closedBy).toBe(c.admin.id);

    const poll = await createPoll(c.admin, c.roomId);
    expectError(await fx.api(c.member, 'POST', `/polls/${poll.id}/close`), 403, 'forbidden');
    expect((await fx.api(c.member, 'GET', `/polls/${poll.id}`)).body.data.closed).toBe(false);
    expect(await pollEvents(poll.id)).toBe(1);
  });

  test('closing is idempotent: the same answer and one poll.closed event', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.owner, c.roomId);
    const first = await fx.api(c.owner, 'POST', `/polls/${poll.id}/close`);
    const again = await fx.api(c.admin, 'POST', `/polls/${poll.id}/close`);
    expectOk(again);
    expect({ ...again.body.data, myVote: [] }).toEqual({ ...first.body.data, myVote: [] });
    expect(again.body.data.closedBy).toBe(c.owner.id);
    const { rows } = await platform.db.query("select payload from outbox where topic = 'poll.closed' and payload->>'pollId' = $1", [
      poll.id,
    ]);
    expect(rows.map((r) => r.payload)).toEqual([
      {
        audience: { kind: 'room', roomId: c.roomId },
        pollId: poll.id,
        roomId: c.roomId,
        closedBy: c.owner.id,
        closedAt: first.body.data.closedAt,
      },
    ]);
  });

  test('a closed poll refuses votes with 409 poll_closed and keeps its results', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.owner, c.roomId);
    expectOk(await vote(c.member, poll.id, [poll.options[0]!.id]));
    expectOk(await fx.api(c.owner, 'POST', `/polls/${poll.id}/close`));
    const before = await ballotsSnapshot(poll.id);
    expectError(await vote(c.member, poll.id, [poll.options[1]!.id]), 409, 'poll_closed');
    expectError(await vote(c.admin, poll.id, [poll.options[1]!.id]), 409, 'poll_closed');
    expect(await ballotsSnapshot(poll.id)).toEqual(before);
    const results = (await fx.api(c.member, 'GET', `/polls/${poll.id}`)).body.data;
    expect(results).toMatchObject({ closed: true, myVote: [poll.options[0]!.id], totalVoters: 1 });
  });

  test('recalling the POLL message closes the poll; a POLL message cannot be edited; a forward copies its question as text', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.member, c.roomId);
    expectError(
      await fx.api(c.member, 'PATCH', `/rooms/${c.roomId}/messages/${poll.messageId}`, { text: 'changed' }),
      409,
      'message_not_editable',
    );
    expect((await fx.api(c.member, 'GET', `/polls/${poll.id}`)).body.data.question).toBe('Lunch?');

    const target = await fx.room(c.member);
    const forwarded = await fx.api(c.member, 'POST', `/rooms/${target}/forward`, { fromRoomId: c.roomId, messageIds: [poll.messageId] });
    expectOk(forwarded);
    expect(forwarded.body.data[0]).toMatchObject({
      type: 'TEXT',
      text: 'Lunch?',
      forwardedFrom: { roomId: c.roomId, messageId: poll.messageId },
    });
    expect('pollId' in forwarded.body.data[0]).toBe(false);

    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${poll.messageId}/recall`));
    const after = (await fx.api(c.member, 'GET', `/polls/${poll.id}`)).body.data;
    expect(after).toMatchObject({ closed: true, closedBy: c.owner.id });
    expectError(await vote(c.member, poll.id, [poll.options[0]!.id]), 409, 'poll_closed');
    const { rows } = await platform.db.query("select payload from outbox where topic = 'poll.closed' and payload->>'pollId' = $1", [
      poll.id,
    ]);
    expect(rows.map((r) => r.payload.reason)).toEqual(['recalled']);
  });
});

describe('concurrency', () => {
  test('concurrent votes by one account leave exactly one vote set; counts equal a recount', async () => {
    const c = await fx.cast();
    const poll = await createPoll(c.owner, c.roomId, { multipleChoice: true, options: ['a', 'b', 'c', 'd'] });
    const ids = poll.options.map((o) => o.id);
    const sets = [[0], [1, 2], [3], [0, 1, 2, 3], [2], [0, 3], [1], [2, 3]].map((s) => s.map((i) => ids[i]!));
    const results = await Promise.all(sets.map((s) => vote(c.member, poll.id, s)));
    for (const r of results) expectOk(r);
    const { rows } = await platform.db.query<{ option_ids: string[] }>(
      'select option_ids from poll_ballots where poll_id = $1 and account_id = $2',
      [poll.id, c.member.id],
    );
    expect(rows).toHaveLength(1);
    const final = [...rows[0]!.option_ids].sort();
    expect(sets.map((s) => [...s].sort())).toContainEqual(final);
    const view: Poll = (await fx.api(c.member, 'GET', `/polls/${poll.id}`)).body.data;
    expect([...view.myVote].sort()).toEqual(final);
    const truth = await recount(poll.id);
    expect(Object.fromEntries(view.options.map((o) => [o.id, o.votes]))).toEqual(truth.perOption);
    expect(view.totalVoters).toBe(1);
  });

  test('many voters voting and changing their votes at once: counts equal a recount', async () => {
    const owner = await tenant.account();
    const voters = await Promise.all(Array.from({ length: 12 }, () => tenant.account()));
    const roomId = await fx.room(owner, voters);
    const poll = await createPoll(owner, roomId, { options: ['x', 'y', 'z'] });
    const ids = poll.options.map((o) => o.id);
    await Promise.all(voters.flatMap((v, i) => [vote(v, poll.id, [ids[i % 3]!]), vote(v, poll.id, [ids[(i + 1) % 3]!])]));
    const view: Poll = (await fx.api(owner, 'GET', `/polls/${poll.id}`)).body.data;
    const truth = await recount(poll.id);
    expect(view.totalVoters).toBe(12);
    expect(truth.voters).toBe(12);
    expect(Object.fromEntries(view.options.map((o) => [o.id, o.votes]))).toEqual(truth.perOption);
    expect(view.options.reduce((n, o) => n + o.votes, 0)).toBe(12);
  });

  test('votes racing a close: every vote is either counted before the close or refused with poll_closed', async () => {
    const c = await fx.cast();
    const voters = await Promise.all(Array.from({ length: 10 }, () => tenant.account()));
    const roomId = await fx.room(c.owner, voters);
    const poll = await createPoll(c.owner, roomId);
    const optionId = poll.options[0]!.id;
    const [closed, ...votes] = await Promise.all([
      fx.api(c.owner, 'POST', `/polls/${poll.id}/close`),
      ...voters.map((v) => vote(v, poll.id, [optionId])),
    ]);
    expectOk(closed!);
    const accepted = votes.filter((r) => r.status === 200).length;
    for (const r of votes.filter((v) => v.status !== 200)) expectError(r, 409, 'poll_closed');
    expect(await ballots(poll.id)).toBe(accepted);
    const { rows } = await platform.db.query<{ late: number }>(
      'select count(*)::int as late from poll_ballots b join polls p on p.id = b.poll_id where p.id = $1 and b.voted_at > p.closed_at',
      [poll.id],
    );
    expect(rows[0]!.late).toBe(0);
  });
});
