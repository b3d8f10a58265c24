// RULE channels over the real listener: the rule language (each operator, nesting, values without a field),
// errors that point at the bad part, PUT rule re-evaluating membership before it answers, what a member who drops
// out of the rule loses, and PATCH /accounts/{id}/metadata (and registration) re-syncing every RULE channel.
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { newId } from '../../platform/ids.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { alternate } from '../../../test/helpers/data.js';

let platform: TestPlatform;
let base: string;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  base = platform.chatUrl;
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform.stop();
});

const api = (who: TestAccount, method: string, path: string, body?: unknown) =>
  call(base, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });

interface Metadata {
  team?: string | null;
  department?: string | null;
  role?: string | null;
  tags?: string[];
}

/** An account with metadata written directly (setup only; the metadata operation is tested below). */
async function person(tenant: TestTenant, metadata: Metadata): Promise<TestAccount> {
  const a = await tenant.account();
  await platform.db.query('update accounts set team = $2, department = $3, role = $4, tags = $5 where id = $1', [
    a.id,
    metadata.team ?? null,
    metadata.department ?? null,
    metadata.role ?? null,
    metadata.tags ?? [],
  ]);
  return a;
}

async function ruleChannel(owner: TestAccount, rule: unknown): Promise<string> {
  const res = await api(owner, 'POST', '/channels', { name: 'Ruled', membershipMode: 'RULE', rule });
  expectOk(res, 201);
  return res.body.data.id;
}

/** Every member of the channel through the API (pages of 500). */
async function members(who: TestAccount, channelId: string): Promise<Array<{ accountId: string; role: string }>> {
  const all: Array<{ accountId: string; role: string }> = [];
  let cursor: string | null = null;
  do {
    const res = await api(who, 'GET', `/channels/${channelId}/members?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expectOk(res);
    all.push(...res.body.data);
    cursor = res.body.meta.nextCursor;
  } while (cursor);
  return all;
}
const ids = async (who: TestAccount, channelId: string) => (await members(who, channelId)).map((m) => m.accountId).sort();

describe('the rule language', () => {
  test('equals, in, contains, all, any and not select exactly the matching accounts of the tenant', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, { team: 'ops' });
    const ana = await person(tenant, { team: 'core', role: 'lead', tags: ['oncall'] });
    const ben = await person(tenant, { team: 'core', role: 'engineer', tags: ['oncall', 'berlin'] });
    const cy = await person(tenant, { team: 'core', role: 'manager', tags: [] });
    const dee = await person(tenant, { team: 'core', role: 'engineer', tags: ['paris'] });
    const eve = await person(tenant, { team: null, department: 'sales', tags: ['oncall'] });
    // The example of the issue: core, and on call or lead/manager.
    const example = await ruleChannel(owner, {
      all: [
        { field: 'team', equals: 'core' },
        {
          any: [
            { field: 'tags', contains: 'oncall' },
            { field: 'role', in: ['lead', 'manager'] },
          ],
        },
      ],
    });
    expect(await ids(owner, example)).toEqual([owner.id, ana.id, ben.id, cy.id].sort());
    // not: a field without a value is "not core" too.
    const notCore = await ruleChannel(owner, { not: { field: 'team', equals: 'core' } });
    expect(await ids(owner, notCore)).toEqual([owner.id, eve.id].sort());
    // tags in: at least one of them.
    const cities = await ruleChannel(owner, { field: 'tags', in: ['paris', 'berlin'] });
    expect(await ids(owner, cities)).toEqual([owner.id, ben.id, dee.id].sort());
    const sales = await ruleChannel(owner, { field: 'department', in: ['sales', 'legal'] });
    expect(await ids(owner, sales)).toEqual([owner.id, eve.id].sort());
    // The creator is OWNER whether or not it matches; matching accounts are MEMBER.
    const roles = await members(owner, example);
    expect(roles.find((m) => m.accountId === owner.id)?.role).toBe('OWNER');
    expect(roles.filter((m) => m.accountId !== owner.id).every((m) => m.role === 'MEMBER')).toBe(true);
    const detail = await api(owner, 'GET', `/channels/${example}`);
    expect(detail.body.data).toMatchObject({ membershipMode: 'RULE', memberCount: 4 });
    expect(detail.body.data.rule).toEqual({
      all: [
        { field: 'team', equals: 'core' },
        {
          any: [
            { field: 'tags', contains: 'oncall' },
            { field: 'role', in: ['lead', 'manager'] },
          ],
        },
      ],
    });
  });

  test('only USER accounts of the channel module and customer match: other tenants and bots never do', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, {});
    const mine = await person(tenant, { team: 'core' });
    const otherCustomer = await person(await platform.tenant({ moduleCode: tenant.moduleCode }), { team: 'core' });
    const otherModule = await person(await platform.tenant({ customer: tenant.customer }), { team: 'core' });
    const bot = await person(tenant, { team: 'core' });
    await platform.db.query(`update accounts set account_type = 'BOT' where id = $1`, [bot.id]);
    const channelId = await ruleChannel(owner, { field: 'team', equals: 'core' });
    expect(await ids(owner, channelId)).toEqual([owner.id, mine.id].sort());
    expect(
      await count(platform.db, 'select count(*) as n from channel_members where account_id = any($1::uuid[])', [
        [otherCustomer.id, otherModule.id, bot.id],
      ]),
    ).toBe(0);
  });

  test('a bad rule is 400 with details at the bad part, and nothing is created or changed', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, {});
    const bad: Array<[unknown, string[]]> = [
      [{ all: [{ field: 'team', equals: 'core' }, { any: [{ field: 'office', equals: 'x' }] }] }, ['body.rule.all[1].any[0].field']],
      [{ all: [] }, ['body.rule.all']],
      [
        {
          any: [
            { field: 'tags', equals: 'x' },
            { field: 'team', contains: 'x' },
          ],
        },
        ['body.rule.any[0].equals', 'body.rule.any[1].contains'],
      ],
      [{ not: { field: 'role', in: [] } }, ['body.rule.not.in']],
      [{ not: { field: 'role', in: ['a', 7] } }, ['body.rule.not.in[1]']],
      [{ field: 'team' }, ['body.rule']],
      [{ field: 'team', equals: 'a', in: ['b'] }, ['body.rule']],
      [{ all: [{ field: 'team', equals: '' }], any: [] }, ['body.rule']],
      [{ field: 'team', equals: 'a', extra: 1 }, ['body.rule.extra']],
      [{ not: 'team' }, ['body.rule.not']],
      [{ field: 'team', equals: 'x'.repeat(101) }, ['body.rule.equals']],
      [
        { not: { not: { not: { not: { not: { not: { not: { not: { field: 'team', equals: 'a' } } } } } } } } },
        ['body.rule.not.not.not.not.not.not.not.not'],
      ],
      [
        {
          any: Array.from({ length: 50 }, () => ({
            all: [
              { field: 'team', equals: 'a' },
              { field: 'role', equals: 'b' },
            ],
          })),
        },
        ['body.rule.any[33]'],
      ],
    ];
    for (const [rule, locations] of bad) {
      const res = await api(owner, 'POST', '/channels', { name: 'Bad', membershipMode: 'RULE', rule });
      expectError(res, 400, 'validation_failed', locations);
    }
    expect(await count(platform.db, 'select count(*) as n from channels where created_by = $1', [owner.id])).toBe(0);

    const channelId = await ruleChannel(owner, { field: 'team', equals: 'core' });
    const before = await platform.db.query('select rule, member_count from channels where id = $1', [channelId]);
    const outbox = await count(platform.db, "select count(*) as n from outbox where payload->>'channelId' = $1", [channelId]);
    for (const [rule, locations] of bad)
      expectError(await api(owner, 'PUT', `/channels/${channelId}/rule`, { rule }), 400, 'validation_failed', locations);
    expectError(await api(owner, 'PUT', `/channels/${channelId}/rule`, {}), 400, 'validation_failed', 'body.rule');
    expect((await platform.db.query('select rule, member_count from channels where id = $1', [channelId])).rows).toEqual(before.rows);
    expect(await count(platform.db, "select count(*) as n from outbox where payload->>'channelId' = $1", [channelId])).toBe(outbox);
  });
});

describe('PUT rule', () => {
  test('when it answers, the member list is the rule result; those who drop out lose the channel rooms; managers stay', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, { team: 'ops' });
    const staying = await person(tenant, { team: 'core', tags: ['oncall'] });
    const leaving = await person(tenant, { team: 'core' });
    const joining = await person(tenant, { team: 'ops', tags: ['oncall'] });
    const channelId = await ruleChannel(owner, { field: 'team', equals: 'core' });
    const roomRes = await api(owner, 'POST', '/rooms', { type: 'GROUP', name: 'Channel room', channelId });
    expectOk(roomRes, 201);
    const roomId = roomRes.body.data.id;
    expect(roomRes.body.data.memberCount).toBe(3);
    expectOk(await api(leaving, 'POST', `/rooms/${roomId}/messages`, { text: 'still here' }), 201);

    const res = await api(owner, 'PUT', `/channels/${channelId}/rule`, { rule: { field: 'tags', contains: 'oncall' } });
    expectOk(res);
    expect(res.body.data).toMatchObject({ rule: { field: 'tags', contains: 'oncall' }, memberCount: 3 });
    expect(await ids(owner, channelId)).toEqual([owner.id, staying.id, joining.id].sort());
    // The member who dropped out lost the channel and its rooms at once.
    expectError(await api(leaving, 'GET', `/channels/${channelId}`), 404, 'channel_not_found');
    expectError(await api(leaving, 'GET', `/rooms/${roomId}`), 404, 'room_not_found');
    expectError(await api(leaving, 'POST', `/rooms/${roomId}/messages`, { text: 'gone' }), 404, 'room_not_found');
    const joined = await api(joining, 'GET', `/rooms/${roomId}`);
    expectOk(joined);
    expect(joined.body.data).toMatchObject({ memberCount: 3, unreadCount: 0 });
    const { rows: room } = await platform.db.query('select member_count from rooms where id = $1', [roomId]);
    expect(room[0].member_count).toBe(3);
    const removed = await platform.db.query<{ payload: { accountIds: string[]; audience: unknown } }>(
      "select payload from outbox where topic = 'member.removed' and payload->>'roomId' = $1 order by id",
      [roomId],
    );
    expect(removed.rows.map((r) => r.payload.audience)).toEqual([
      { kind: 'room', roomId },
      { kind: 'accounts', accountIds: [leaving.id] },
    ]);
    expect(removed.rows[0]!.payload.accountIds).toEqual([leaving.id]);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'channel.rule_changed' and payload->>'channelId' = $1", [
        channelId,
      ]),
    ).toBe(1);

    // The same rule again changes no membership.
    const events = await count(
      platform.db,
      "select count(*) as n from outbox where topic like 'channel.members_%' and payload->>'channelId' = $1",
      [channelId],
    );
    expectOk(await api(owner, 'PUT', `/channels/${channelId}/rule`, { rule: { field: 'tags', contains: 'oncall' } }));
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic like 'channel.members_%' and payload->>'channelId' = $1", [
        channelId,
      ]),
    ).toBe(events);

    // A rule nobody matches leaves the managers.
    expectOk(await api(owner, 'PUT', `/channels/${channelId}/rule`, { rule: { field: 'team', equals: 'nobody' } }));
    expect(await ids(owner, channelId)).toEqual([owner.id]);
  });

  test('refusals: an EXPLICIT channel (409), a plain member (403), a non-member (404); the rule stays', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, {});
    const member = await person(tenant, { team: 'core' });
    const outsider = await person(tenant, {});
    const explicit = await api(owner, 'POST', '/channels', { name: 'Explicit', membershipMode: 'EXPLICIT', memberIds: [member.id] });
    expectError(
      await api(owner, 'PUT', `/channels/${explicit.body.data.id}/rule`, { rule: { field: 'team', equals: 'core' } }),
      409,
      'channel_not_rule_based',
    );
    expectError(
      await api(member, 'PUT', `/channels/${explicit.body.data.id}/rule`, { rule: { field: 'team', equals: 'core' } }),
      409,
      'channel_not_rule_based',
    );
    const channelId = await ruleChannel(owner, { field: 'team', equals: 'core' });
    expectError(await api(member, 'PUT', `/channels/${channelId}/rule`, { rule: { field: 'team', equals: 'x' } }), 403, 'forbidden');
    expectError(
      await api(outsider, 'PUT', `/channels/${channelId}/rule`, { rule: { field: 'team', equals: 'x' } }),
      404,
      'channel_not_found',
    );
    expect((await platform.db.query('select rule from channels where id = $1', [channelId])).rows[0].rule).toEqual({
      field: 'team',
      equals: 'core',
    });
    expect(await ids(owner, channelId)).toEqual([owner.id, member.id].sort());
  });
});

describe('metadata re-sync', () => {
  const patchMetadata = (id: string, body: Metadata) => call(base, 'PATCH', `/api/v1/accounts/${id}/metadata`, { token: admin, body });

  test('PATCH metadata re-syncs every RULE channel of the tenant before it answers, rooms included', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, {});
    const ann = await person(tenant, { team: 'ops' });
    const core = await ruleChannel(owner, { field: 'team', equals: 'core' });
    const oncall = await ruleChannel(owner, { field: 'tags', contains: 'oncall' });
    const notCore = await ruleChannel(owner, { not: { field: 'team', equals: 'core' } });
    const explicit = (await api(owner, 'POST', '/channels', { name: 'Explicit', membershipMode: 'EXPLICIT' })).body.data.id;
    const coreRoom = (await api(owner, 'POST', '/rooms', { type: 'GROUP', name: 'Core room', channelId: core })).body.data.id;
    expect(await ids(owner, notCore)).toContain(ann.id);

    const res = await patchMetadata(ann.id, { team: 'core', tags: ['oncall'] });
    expectOk(res);
    expect(res.body.data.metadata).toEqual({ team: 'core', department: null, role: null, tags: ['oncall'] });
    // Visible at once: no waiting.
    expect(await ids(owner, core)).toContain(ann.id);
    expect(await ids(owner, oncall)).toContain(ann.id);
    expect(await ids(owner, notCore)).not.toContain(ann.id);
    expect(await ids(owner, explicit)).not.toContain(ann.id);
    expectOk(await api(ann, 'GET', `/rooms/${coreRoom}`));
    const metadataEvents = await count(
      platform.db,
      "select count(*) as n from outbox where topic like 'channel.members_%' and payload->>'cause' = 'metadata' and payload->'accountIds' ? $1",
      [ann.id],
    );
    expect(metadataEvents).toBe(3 + 1); // added to core and oncall; removed from notCore (written twice)

    // Absent fields stay; null clears.
    expectOk(await patchMetadata(ann.id, { team: null }));
    expect(await ids(owner, core)).not.toContain(ann.id);
    expect(await ids(owner, oncall)).toContain(ann.id);
    expect(await ids(owner, notCore)).toContain(ann.id);
    expectError(await api(ann, 'GET', `/rooms/${coreRoom}`), 404, 'room_not_found');
  });

  test('another tenant with the same metadata is untouched; an unknown account is 404 and nothing changes', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, {});
    const channelId = await ruleChannel(owner, { field: 'team', equals: 'core' });
    const foreign = await person(await platform.tenant(), {});
    expectOk(await patchMetadata(foreign.id, { team: 'core' }));
    expect(await ids(owner, channelId)).toEqual([owner.id]);
    expectError(await patchMetadata('00000000-0000-4000-8000-000000000000', { team: 'core' }), 404, 'account_not_found');
  });

  test('registration with matching metadata joins the rule channels before it answers', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, {});
    const channelId = await ruleChannel(owner, { field: 'role', equals: 'lead' });
    const id = newId();
    const res = await call(base, 'POST', '/api/v1/accounts/register', {
      token: admin,
      body: { id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'New lead', metadata: { role: 'lead' } },
    });
    expectOk(res);
    expect(await ids(owner, channelId)).toEqual([owner.id, id].sort());
  });

  /** The team person i moves to in a round of the race: core for every third (shifted by the round), else ops. */
  const racingTeam = (i: number, round: number): string => ((i + round) % 3 === 0 ? 'core' : 'ops');

  test('PUT rule and metadata changes racing end on the rule applied to the final metadata', async () => {
    const tenant = await platform.tenant();
    const owner = await person(tenant, {});
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => person(tenant, { team: alternate(i, 'core', 'ops') })));
    const channelId = await ruleChannel(owner, { field: 'team', equals: 'core' });
    for (let round = 0; round < 3; round++) {
      const team = alternate(round, 'ops', 'core');
      const results = await Promise.all([
        api(owner, 'PUT', `/channels/${channelId}/rule`, { rule: { field: 'team', equals: team } }),
        ...people.map((p, i) => patchMetadata(p.id, { team: racingTeam(i, round) })),
      ]);
      for (const r of results) expectOk(r);
      const expected = people.filter((_, i) => racingTeam(i, round) === team).map((p) => p.id);
      expect(await ids(owner, channelId)).toEqual([owner.id, ...expected].sort());
      expect((await platform.db.query('select member_count from channels where id = $1', [channelId])).rows[0].member_count).toBe(
        expected.length + 1,
      );
    }
  });
});
