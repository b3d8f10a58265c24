// Rows of the authorization table for channels, contacts and broadcasts (see chat-rows.ts for the defaults).
// Channel operations use the room personas as channel roles: the owner creates the channel, the admin is made
// ADMIN and the member is a MEMBER; the non-member and the platform administrator are in no channel and get
// 404 channel_not_found, exactly as outsiders of a room get room_not_found.
import { call, type TestAccount } from '../support/platform.js';
import { refusal, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

const CHANNEL_NOT_FOUND = refusal(404, 'channel_not_found');
const outsiders = { nonMember: CHANNEL_NOT_FOUND, platformAdmin: CHANNEL_NOT_FOUND } as const;
const CALLERS: Persona[] = ['nonMember', 'member', 'admin', 'owner', 'platformAdmin'];

async function must<T>(what: string, res: Promise<{ status: number; body: any }>, status = 200): Promise<T> {
  const r = await res;
  if (r.status !== status) throw new Error(`row setup, ${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body?.data as T;
}

const api = (w: World, who: TestAccount, method: string, path: string, body?: unknown) =>
  call(w.platform.chatUrl, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });

/** An EXPLICIT channel: the owner created it with the member, and added the admin as ADMIN. */
async function explicitChannel(w: World): Promise<string> {
  const channel = await must<{ id: string }>(
    'create channel',
    api(w, w.owner, 'POST', '/channels', { name: `Authz ${w.tag}`, membershipMode: 'EXPLICIT', memberIds: [w.member.id] }),
    201,
  );
  await must('add admin', api(w, w.owner, 'POST', `/channels/${channel.id}/members`, { accountId: w.admin.id, role: 'ADMIN' }));
  return channel.id;
}

const teamRule = (w: World) => ({ field: 'team', equals: `authz-${w.tag}` });

/** A RULE channel whose rule matches the admin and the member; the admin is then made ADMIN. */
async function ruleChannel(w: World): Promise<string> {
  for (const who of [w.admin, w.member]) {
    await must(
      'metadata',
      call(w.platform.chatUrl, 'PATCH', `/api/v1/accounts/${who.id}/metadata`, {
        token: w.platformAdmin.token,
        body: { team: `authz-${w.tag}` },
      }),
    );
  }
  const channel = await must<{ id: string }>(
    'create channel',
    api(w, w.owner, 'POST', '/channels', { name: `Ruled ${w.tag}`, membershipMode: 'RULE', rule: teamRule(w) }),
    201,
  );
  // No operation changes a role in a RULE channel: the admin is promoted in the table.
  await w.platform.db.query(`update channel_members set role = 'ADMIN' where channel_id = $1 and account_id = $2`, [
    channel.id,
    w.admin.id,
  ]);
  return channel.id;
}

const channels: Row[] = [
  row({
    operationId: 'listChannels',
    method: 'GET',
    path: '/api/v1/channels',
    audience: 'caller',
    setup: explicitChannel,
    request: () => ({ query: { limit: '10' } }),
  }),
  row({
    operationId: 'createChannel',
    method: 'POST',
    path: '/api/v1/channels',
    audience: 'caller',
    request: (_w, p) => ({ body: { name: `Made by ${p}`, membershipMode: 'EXPLICIT' } }),
  }),
  row({
    operationId: 'getChannel',
    method: 'GET',
    path: '/api/v1/channels/{id}',
    audience: 'room',
    outcomes: outsiders,
    setup: explicitChannel,
    request: (_w, _p, id) => ({ params: { id } }),
  }),
  row({
    operationId: 'updateChannel',
    method: 'PATCH',
    path: '/api/v1/channels/{id}',
    audience: 'room',
    allowed: ['admin', 'owner'],
    outcomes: outsiders,
    setup: explicitChannel,
    request: (_w, p, id) => ({ params: { id }, body: { name: `Renamed by ${p}` } }),
  }),
  row({
    operationId: 'deleteChannel',
    method: 'DELETE',
    path: '/api/v1/channels/{id}',
    audience: 'room',
    allowed: ['owner'],
    outcomes: outsiders,
    setup: explicitChannel,
    request: (_w, _p, id) => ({ params: { id } }),
  }),
  row({
    operationId: 'updateChannelRule',
    variant: 'RULE channel',
    method: 'PUT',
    path: '/api/v1/channels/{id}/rule',
    audience: 'room',
    allowed: ['admin', 'owner'],
    outcomes: outsiders,
    setup: ruleChannel,
    request: (w, _p, id) => ({ params: { id }, body: { rule: teamRule(w) } }),
  }),
  row({
    operationId: 'updateChannelRule',
    variant: 'EXPLICIT channel: 409 for every member',
    method: 'PUT',
    path: '/api/v1/channels/{id}/rule',
    audience: 'room',
    allowed: [],
    outcomes: {
      ...outsiders,
      member: refusal(409, 'channel_not_rule_based'),
      admin: refusal(409, 'channel_not_rule_based'),
      owner: refusal(409, 'channel_not_rule_based'),
    },
    setup: explicitChannel,
    request: (w, _p, id) => ({ params: { id }, body: { rule: teamRule(w) } }),
  }),
  row({
    operationId: 'listChannelMembers',
    method: 'GET',
    path: '/api/v1/channels/{id}/members',
    audience: 'room',
    outcomes: outsiders,
    setup: explicitChannel,
    request: (_w, _p, id) => ({ params: { id } }),
  }),
  row({
    operationId: 'addChannelMember',
    variant: 'EXPLICIT channel',
    method: 'POST',
    path: '/api/v1/channels/{id}/members',
    audience: 'room',
    allowed: ['admin', 'owner'],
    outcomes: outsiders,
    // A new account per persona, so that each allowed call adds someone.
    setup: async (w) => ({
      id: await explicitChannel(w),
      mine: Object.fromEntries(await Promise.all(CALLERS.map(async (p) => [p, await w.account()] as const))),
    }),
    request: (w, p, s) => ({ params: { id: s.id }, body: { accountId: (s.mine[p] ?? w.spare).id } }),
  }),
  row({
    operationId: 'addChannelMember',
    variant: 'RULE channel: 409 for every member',
    method: 'POST',
    path: '/api/v1/channels/{id}/members',
    audience: 'room',
    allowed: [],
    outcomes: {
      ...outsiders,
      member: refusal(409, 'channel_rule_managed'),
      admin: refusal(409, 'channel_rule_managed'),
      owner: refusal(409, 'channel_rule_managed'),
    },
    setup: ruleChannel,
    request: (w, _p, id) => ({ params: { id }, body: { accountId: w.spare.id } }),
  }),
  row({
    operationId: 'updateChannelPreferences',
    method: 'PATCH',
    path: '/api/v1/channels/{id}/preferences',
    audience: 'room',
    outcomes: outsiders,
    setup: explicitChannel,
    request: (_w, _p, id) => ({ params: { id }, body: { pinned: true } }),
  }),
  row({
    operationId: 'createRoom',
    variant: 'in a channel',
    method: 'POST',
    path: '/api/v1/rooms',
    audience: 'room',
    allowed: ['admin', 'owner'],
    outcomes: outsiders,
    setup: explicitChannel,
    request: (_w, p, channelId) => ({ body: { type: 'GROUP', name: `Channel room by ${p}`, channelId } }),
  }),
];

const contacts: Row[] = [
  row({
    operationId: 'listContactRequests',
    method: 'GET',
    path: '/api/v1/contacts/requests',
    audience: 'caller',
    request: () => ({ query: { direction: 'outgoing' } }),
  }),
  row({
    operationId: 'createContactRequest',
    method: 'POST',
    path: '/api/v1/contacts/requests',
    audience: 'caller',
    // Any active USER account may be invited, across customers too (the platform administrator's is another one).
    request: (w) => ({ body: { accountId: w.spare.id } }),
  }),
  row({
    operationId: 'acceptContactRequest',
    method: 'POST',
    path: '/api/v1/contacts/requests/{requestId}/accept',
    audience: 'caller',
    // The spare account invites every caller persona; each accepts the request addressed to it.
    setup: async (w) =>
      Object.fromEntries(
        await Promise.all(
          CALLERS.map(
            async (p) =>
              [
                p,
                (await must<{ id: string }>('invite', api(w, w.spare, 'POST', '/contacts/requests', { accountId: w.accountOf(p)!.id }))).id,
              ] as const,
          ),
        ),
      ) as Partial<Record<Persona, string>>,
    request: (_w, p, mine) => ({ params: { requestId: mine[p] ?? mine.member! } }),
  }),
  row({
    operationId: 'declineContactRequest',
    method: 'POST',
    path: '/api/v1/contacts/requests/{requestId}/decline',
    audience: 'caller',
    // The spare account invites every caller persona; each declines the request addressed to it.
    setup: (w) => eachCaller((p) => invitation(w, w.spare, w.accountOf(p)!)),
    request: (_w, p, mine) => ({ params: { requestId: mine[p] ?? mine.member! } }),
  }),
  row({
    operationId: 'cancelContactRequest',
    method: 'POST',
    path: '/api/v1/contacts/requests/{requestId}/cancel',
    audience: 'caller',
    // Every caller persona invites the spare account and withdraws its own invitation.
    setup: (w) => eachCaller((p) => invitation(w, w.accountOf(p)!, w.spare)),
    request: (_w, p, mine) => ({ params: { requestId: mine[p] ?? mine.member! } }),
  }),
  row({
    operationId: 'removeContact',
    method: 'POST',
    path: '/api/v1/contacts/requests/{requestId}/remove',
    audience: 'caller',
    // The spare account and every caller persona are contacts (the persona accepted); each removes its own.
    setup: (w) =>
      eachCaller(async (p) => {
        const id = await invitation(w, w.spare, w.accountOf(p)!);
        await must('accept', api(w, w.accountOf(p)!, 'POST', `/contacts/requests/${id}/accept`));
        return id;
      }),
    request: (_w, p, mine) => ({ params: { requestId: mine[p] ?? mine.member! } }),
  }),
];

/** The id of a PENDING contact request from `from` to `to`. */
const invitation = async (w: World, from: TestAccount, to: TestAccount) =>
  (await must<{ id: string }>('invite', api(w, from, 'POST', '/contacts/requests', { accountId: to.id }))).id;

/** One request per caller persona, keyed by the persona. */
const eachCaller = async (make: (p: Persona) => Promise<string>) =>
  Object.fromEntries(await Promise.all(CALLERS.map(async (p) => [p, await make(p)] as const))) as Partial<Record<Persona, string>>;

const broadcasts: Row[] = [
  row({
    operationId: 'createBroadcast',
    method: 'POST',
    path: '/api/v1/admin/broadcasts',
    audience: 'platformAdmin',
    request: (w) => ({ body: { title: `Authz ${w.tag}`, text: 'To everyone' } }),
  }),
  row({
    operationId: 'createTargetedBroadcast',
    method: 'POST',
    path: '/api/v1/admin/broadcasts/targeted',
    audience: 'platformAdmin',
    request: (w) => ({ body: { text: 'To one module', audience: { modules: [w.tenant.moduleCode] } } }),
  }),
  row({
    operationId: 'listMyBroadcasts',
    method: 'GET',
    path: '/api/v1/me/broadcasts',
    audience: 'caller',
    request: () => ({ query: { limit: '10' } }),
  }),
  row({
    operationId: 'getBroadcastUnreadCount',
    method: 'GET',
    path: '/api/v1/me/broadcasts/unread-count',
    audience: 'caller',
    request: () => ({}),
  }),
  row({
    operationId: 'markBroadcastsRead',
    method: 'POST',
    path: '/api/v1/me/broadcasts/read',
    audience: 'caller',
    setup: (w) =>
      must(
        'broadcast',
        api(w, w.platformAdmin, 'POST', '/admin/broadcasts/targeted', {
          text: 'Something to read',
          audience: { modules: [w.tenant.moduleCode] },
        }),
      ),
    request: () => ({ body: {} }),
  }),
];

export const channelsRows: Row[] = [...channels, ...contacts, ...broadcasts];
