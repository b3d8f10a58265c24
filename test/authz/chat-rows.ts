// The authorization table of the chat API: one row per operation (a few operations have a second row for
// another scope or room policy). Outcomes not written here are the defaults of personas.ts: anonymous 401
// unauthenticated, unknown key 401 unknown_signing_key, deactivated 403 account_deactivated, non-member (and a
// platform administrator, who is no member either) 404 room_not_found on room operations, a member without the
// role 403 forbidden, a non-administrator 403 platform_admin_required on administration operations.
//
// Rows of operations that are not in this branch's spec yet (OPS.md) carry the bodies their briefs describe;
// the test skips them until the operation appears in generated/openapi/chat.json.
import { newId } from '../../src/platform/ids.js';
import { testWorkspace } from '../support/partner.js';
import { generateSigningKey } from '../support/platform.js';
import { refusal, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

const MEMBERS: Persona[] = ['member', 'admin', 'owner'];
const EMOJI = '👍';

/** Something per room member persona (made by `make`), for operations each of them can do only once. */
async function perMember<T>(make: (p: Persona) => Promise<T>): Promise<Partial<Record<Persona, T>>> {
  const entries = await Promise.all(MEMBERS.map(async (p) => [p, await make(p)] as const));
  return Object.fromEntries(entries);
}

const room = (w: World) => ({ roomId: w.roomId });
const ownerMessage = (w: World) => ({ roomId: w.roomId, messageId: w.ownerMessageId });

const health: Row[] = [
  row({ operationId: 'getHealth', method: 'GET', path: '/healthz', audience: 'public', request: () => ({}) }),
  row({ operationId: 'getReadiness', method: 'GET', path: '/readyz', audience: 'public', request: () => ({}) }),
];

const administration: Row[] = [
  row({ operationId: 'listModules', method: 'GET', path: '/api/v1/admin/modules', audience: 'platformAdmin', request: () => ({}) }),
  row({
    operationId: 'createModule',
    method: 'POST',
    path: '/api/v1/admin/modules',
    audience: 'platformAdmin',
    request: (w) => ({ body: { code: w.spareModule, name: 'Authorization table module' } }),
  }),
  row({
    operationId: 'listCustomerKeys',
    method: 'GET',
    path: '/api/v1/admin/modules/{code}/customers/{customerAccountId}/keys',
    audience: 'platformAdmin',
    request: (w) => ({ params: { code: w.tenant.moduleCode, customerAccountId: w.tenant.customer } }),
  }),
  row({
    operationId: 'registerCustomerKey',
    method: 'POST',
    path: '/api/v1/admin/modules/{code}/customers/{customerAccountId}/keys',
    audience: 'platformAdmin',
    setup: () => generateSigningKey(),
    request: (w, _p, key) => ({
      params: { code: w.tenant.moduleCode, customerAccountId: w.tenant.customer },
      body: { algorithm: 'ES256', publicKeyPem: key.publicKeyPem },
    }),
  }),
  row({
    operationId: 'refreshCustomerKeys',
    method: 'POST',
    path: '/api/v1/admin/modules/{code}/customers/{customerAccountId}/keys/refresh',
    audience: 'platformAdmin',
    request: (w) => ({ params: { code: w.tenant.moduleCode, customerAccountId: w.tenant.customer } }),
  }),
  row({
    operationId: 'getWorkspacePlan',
    method: 'GET',
    path: '/api/v1/admin/workspaces/{workspaceId}/plan',
    audience: 'platformAdmin',
    setup: (w) => testWorkspace(w.platform, { owner: w.spare }),
    request: (_w, _p, ws) => ({ params: { workspaceId: ws.id } }),
  }),
  row({
    operationId: 'setWorkspacePlan',
    method: 'PUT',
    path: '/api/v1/admin/workspaces/{workspaceId}/plan',
    audience: 'platformAdmin',
    setup: (w) => testWorkspace(w.platform, { owner: w.spare }),
    request: (_w, _p, ws) => ({ params: { workspaceId: ws.id }, body: { plan: 'enterprise', ratePerHour: 20_000, burstPerMinute: 600 } }),
  }),
  ...accountRows(),
];

/**
 * Account administration: the platform administrator for every account; a module's SERVICE account for those of
 * its module and customer (another module's account: 404, like a missing one); USER accounts are refused before the
 * body is read (403 account_admin_required). Three rows per operation: USER personas, the personas made SERVICE
 * accounts of the world's module, and those SERVICE accounts aimed at another module's account.
 */
function accountRows(): Row[] {
  const USERS: Persona[] = ['nonMember', 'member', 'admin', 'owner'];
  const refused = Object.fromEntries(USERS.map((p) => [p, refusal(403, 'account_admin_required')]));
  const elsewhere = (r: ReturnType<typeof refusal>) => Object.fromEntries(USERS.map((p) => [p, r]));
  const asServices = async (w: World) => {
    await w.platform.db.query(`update accounts set account_type = 'SERVICE' where id = any($1::uuid[])`, [
      USERS.map((p) => w.accountOf(p)!.id),
    ]);
  };
  const foreignAccount = async (w: World) => {
    await asServices(w);
    const other = await w.platform.tenant();
    return { id: (await other.account()).id, moduleCode: other.moduleCode, customer: other.customer };
  };
  const ops = [
    {
      operationId: 'registerAccount',
      method: 'POST' as const,
      path: '/api/v1/accounts/register',
      // Registering for another module is refused outright: the caller names the module itself.
      foreignRefusal: refusal(403, 'forbidden'),
      request: (_w: World, target: { id: string; moduleCode: string; customer: string }) => ({
        body: { id: target.id, moduleCode: target.moduleCode, customerAccountId: target.customer, displayName: 'Registered' },
      }),
    },
    {
      operationId: 'updateAccountStatus',
      method: 'PATCH' as const,
      path: '/api/v1/accounts/{id}/status',
      foreignRefusal: refusal(404, 'account_not_found'),
      request: (_w: World, target: { id: string; moduleCode: string; customer: string }) => ({
        params: { id: target.id },
        body: { status: 'DEACTIVATED' },
      }),
    },
    {
      operationId: 'updateAccountMetadata',
      method: 'PATCH' as const,
      path: '/api/v1/accounts/{id}/metadata',
      foreignRefusal: refusal(404, 'account_not_found'),
      request: (_w: World, target: { id: string; moduleCode: string; customer: string }) => ({
        params: { id: target.id },
        body: { team: 'Support', tags: ['authz'] },
      }),
    },
  ];
  return ops.flatMap((op) => {
    // registerAccount takes a new id of the world's module; the others the spare account.
    const own = (w: World, id: string) => ({
      id: op.operationId === 'registerAccount' ? id : w.spare.id,
      moduleCode: w.tenant.moduleCode,
      customer: w.tenant.customer,
    });
    const base = { operationId: op.operationId, method: op.method, path: op.path, audience: 'platformAdmin' as const };
    return [
      row({ ...base, outcomes: refused, setup: async () => newId(), request: (w, _p, id) => op.request(w, own(w, id)) }),
      row({
        ...base,
        variant: 'SERVICE accounts of the module',
        allowed: [...USERS, 'platformAdmin'],
        setup: async (w) => {
          await asServices(w);
          return newId();
        },
        request: (w, _p, id) => op.request(w, own(w, id)),
      }),
      row({
        ...base,
        variant: "SERVICE accounts, another module's account",
        outcomes: elsewhere(op.foreignRefusal),
        setup: async (w) => {
          const foreign = await foreignAccount(w);
          // registerAccount: a new id for the other module (the platform administrator may register it).
          return {
            id: op.operationId === 'registerAccount' ? newId() : foreign.id,
            moduleCode: foreign.moduleCode,
            customer: foreign.customer,
          };
        },
        request: (w, _p, target) => op.request(w, target),
      }),
    ];
  });
}

/** Operations on the caller's own things: any active account may call them. */
const callerScoped: Row[] = [
  row({ operationId: 'listRooms', method: 'GET', path: '/api/v1/rooms', audience: 'caller', request: () => ({ query: { limit: '50' } }) }),
  row({
    operationId: 'createRoom',
    method: 'POST',
    path: '/api/v1/rooms',
    audience: 'caller',
    request: () => ({ body: { type: 'GROUP', name: 'Created by a persona' } }),
  }),
  row({ operationId: 'getOrCreateSelfRoom', method: 'POST', path: '/api/v1/rooms/self', audience: 'caller', request: () => ({}) }),
  row({
    operationId: 'getOrCreatePrivateRoom',
    method: 'POST',
    path: '/api/v1/rooms/private',
    audience: 'caller',
    // The platform administrator's module and customer are not the spare account's: no 1-1 room across them.
    outcomes: { platformAdmin: refusal(400, 'validation_failed') },
    request: (w) => ({ body: { accountId: w.spare.id } }),
  }),
  row({ operationId: 'getOrCreateReminderRoom', method: 'POST', path: '/api/v1/rooms/reminders', audience: 'caller', request: () => ({}) }),
  row({
    operationId: 'getUnreadThreadCount',
    method: 'GET',
    path: '/api/v1/threads/unread-count',
    audience: 'caller',
    request: () => ({}),
  }),
];

const rooms: Row[] = [
  row({
    operationId: 'getRoom',
    method: 'GET',
    path: '/api/v1/rooms/{id}',
    audience: 'room',
    request: (w) => ({ params: { id: w.roomId } }),
  }),
  row({
    operationId: 'updateRoom',
    method: 'PATCH',
    path: '/api/v1/rooms/{id}',
    audience: 'room',
    allowed: ['admin', 'owner'],
    request: (w) => ({ params: { id: w.roomId }, body: { name: 'Renamed' } }),
  }),
  row({
    operationId: 'deleteRoom',
    method: 'DELETE',
    path: '/api/v1/rooms/{id}',
    audience: 'room',
    allowed: ['owner'],
    request: (w) => ({ params: { id: w.roomId } }),
  }),
  row({
    operationId: 'archiveRoom',
    method: 'POST',
    path: '/api/v1/rooms/{id}/archive',
    audience: 'room',
    request: (w) => ({ params: { id: w.roomId } }),
  }),
  row({
    operationId: 'unarchiveRoom',
    method: 'POST',
    path: '/api/v1/rooms/{id}/unarchive',
    audience: 'room',
    setup: async (w) => {
      // archiveRoom arrives with the rooms branch: archive directly so that unarchive has something to undo.
      await w.platform.db.query('update room_members set archived = true where room_id = $1', [w.roomId]);
    },
    request: (w) => ({ params: { id: w.roomId } }),
  }),
  row({
    operationId: 'muteRoom',
    method: 'POST',
    path: '/api/v1/rooms/{id}/mute',
    audience: 'room',
    request: (w) => ({ params: { id: w.roomId }, body: {} }),
  }),
  row({
    operationId: 'unmuteRoom',
    method: 'DELETE',
    path: '/api/v1/rooms/{id}/mute',
    audience: 'room',
    request: (w) => ({ params: { id: w.roomId } }),
  }),
  row({
    operationId: 'leaveRoom',
    method: 'POST',
    path: '/api/v1/rooms/{id}/leave',
    audience: 'room',
    allowed: ['member', 'admin'],
    // The last owner of a room that still has members falls under the last-owner rule (the rooms tests).
    outcomes: { owner: 'skip' },
    request: (w) => ({ params: { id: w.roomId } }),
  }),
  row({
    operationId: 'updateRoomPreferences',
    method: 'PATCH',
    path: '/api/v1/rooms/{id}/preferences',
    audience: 'room',
    request: (w) => ({ params: { id: w.roomId }, body: { pinned: true } }),
  }),
  row({
    operationId: 'markRoomRead',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/read',
    audience: 'room',
    request: (w) => ({ params: room(w), body: { messageId: w.memberMessageId } }),
  }),
];

const members: Row[] = [
  row({
    operationId: 'listRoomMembers',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/members',
    audience: 'room',
    request: (w) => ({ params: room(w) }),
  }),
  row({
    operationId: 'addRoomMembers',
    variant: 'ALL_MEMBERS_WITH_APPROVAL: a member asks, owner and admin add',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/members',
    audience: 'room',
    setup: async (w) => ({ others: await w.account(), mine: await perMember(() => w.account()) }),
    request: (w, p, s) => ({ params: room(w), body: { accountIds: [(s.mine[p] ?? s.others).id] } }),
  }),
  row({
    operationId: 'addRoomMembers',
    variant: 'ADMIN_ONLY',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/members',
    audience: 'room',
    allowed: ['admin', 'owner'],
    setup: async (w) => {
      await w.setAddMemberPolicy('ADMIN_ONLY');
      return { others: await w.account(), mine: await perMember(() => w.account()) };
    },
    request: (w, p, s) => ({ params: room(w), body: { accountIds: [(s.mine[p] ?? s.others).id] } }),
  }),
  row({
    operationId: 'changeRoomMemberRole',
    method: 'PATCH',
    path: '/api/v1/rooms/{roomId}/members/{accountId}/role',
    audience: 'room',
    allowed: ['owner'],
    request: (w) => ({ params: { roomId: w.roomId, accountId: w.member.id }, body: { role: 'ADMIN' } }),
  }),
  row({
    operationId: 'listJoinRequests',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/join-requests',
    audience: 'room',
    allowed: ['admin', 'owner'],
    setup: (w) => w.joinRequest(),
    request: (w) => ({ params: room(w) }),
  }),
  ...(['approveJoinRequest', 'rejectJoinRequest'] as const).map((operationId) =>
    row({
      operationId,
      method: 'POST',
      path: `/api/v1/rooms/{roomId}/join-requests/{requestId}/${operationId === 'approveJoinRequest' ? 'approve' : 'reject'}`,
      audience: 'room',
      allowed: ['admin', 'owner'],
      // One pending request per persona: each allowed call resolves its own.
      setup: async (w) => ({ shared: await w.joinRequest(), mine: await perMember(() => w.joinRequest()) }),
      request: (w, p, s) => ({ params: { roomId: w.roomId, requestId: s.mine[p] ?? s.shared } }),
    }),
  ),
];

const messages: Row[] = [
  row({
    operationId: 'listMessages',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/messages',
    audience: 'room',
    request: (w) => ({ params: room(w), query: { limit: '20' } }),
  }),
  row({
    operationId: 'sendMessage',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages',
    audience: 'room',
    request: (w, p) => ({ params: room(w), body: { text: `hello from ${p}` } }),
  }),
  row({
    operationId: 'getMessage',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}',
    audience: 'room',
    request: (w) => ({ params: ownerMessage(w) }),
  }),
  row({
    operationId: 'editMessage',
    method: 'PATCH',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}',
    audience: 'room',
    allowed: ['member'], // the sender only, whatever the room role
    request: (w) => ({ params: { roomId: w.roomId, messageId: w.memberMessageId }, body: { text: 'edited' } }),
  }),
  row({
    operationId: 'hideMessage',
    method: 'DELETE',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}',
    audience: 'room',
    request: (w) => ({ params: ownerMessage(w) }),
  }),
  row({
    operationId: 'restoreMessage',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/restore',
    audience: 'room',
    setup: async (w) => {
      await perMember((p) => w.hide(w.accountOf(p)!.id, w.ownerMessageId));
    },
    request: (w) => ({ params: ownerMessage(w) }),
  }),
  row({
    operationId: 'recallMessage',
    variant: "the member's own message",
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/recall',
    audience: 'room',
    // Each allowed persona recalls a message of its own (all sent by the member).
    setup: (w) => perMember((p) => w.send(w.member, w.roomId, `to be recalled by ${p}`)),
    request: (w, p, mine) => ({ params: { roomId: w.roomId, messageId: mine[p] ?? w.memberMessageId } }),
  }),
  row({
    operationId: 'recallMessage',
    variant: "the owner's message",
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/recall',
    audience: 'room',
    allowed: ['admin', 'owner'], // a member recalls only its own messages
    setup: (w) => perMember((p) => w.send(w.owner, w.roomId, `to be recalled by ${p}`)),
    request: (w, p, mine) => ({
      params: { roomId: w.roomId, messageId: p === 'member' ? w.ownerMessageId : (mine[p] ?? w.ownerMessageId) },
    }),
  }),
  row({
    operationId: 'listReactions',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/reactions',
    audience: 'room',
    setup: (w) => w.react(w.owner.id, w.ownerMessageId, EMOJI),
    request: (w) => ({ params: ownerMessage(w) }),
  }),
  row({
    operationId: 'addReaction',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/reactions',
    audience: 'room',
    request: (w) => ({ params: ownerMessage(w), body: { emoji: EMOJI } }),
  }),
  row({
    operationId: 'removeReaction',
    method: 'DELETE',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/reactions/{emoji}',
    audience: 'room',
    setup: async (w) => {
      await perMember((p) => w.react(w.accountOf(p)!.id, w.ownerMessageId, EMOJI));
    },
    request: (w) => ({ params: { ...ownerMessage(w), emoji: EMOJI } }),
  }),
  row({
    operationId: 'forwardMessages',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/forward',
    audience: 'room',
    setup: (w) => w.sourceRoom(),
    request: (w, _p, source) => ({ params: room(w), body: { fromRoomId: source.roomId, messageIds: [source.messageId] } }),
  }),
];

const pins: Row[] = [
  row({
    operationId: 'pinMessage',
    variant: 'scope ROOM',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/pin',
    audience: 'room',
    allowed: ['admin', 'owner'],
    request: (w) => ({ params: ownerMessage(w), query: { scope: 'ROOM' } }),
  }),
  row({
    operationId: 'pinMessage',
    variant: 'scope PERSONAL',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/pin',
    audience: 'room',
    request: (w) => ({ params: ownerMessage(w), query: { scope: 'PERSONAL' } }),
  }),
  row({
    operationId: 'unpinMessage',
    variant: 'scope ROOM',
    method: 'DELETE',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/pin',
    audience: 'room',
    allowed: ['admin', 'owner'],
    // Pinned again before each call, so every allowed call removes a pin.
    prepare: (w) => w.pinInRoom(w.ownerMessageId),
    request: (w) => ({ params: ownerMessage(w), query: { scope: 'ROOM' } }),
  }),
  row({
    operationId: 'unpinMessage',
    variant: 'scope PERSONAL',
    method: 'DELETE',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/pin',
    audience: 'room',
    setup: async (w) => {
      await perMember((p) => w.pinPersonally(w.accountOf(p)!.id, w.ownerMessageId));
    },
    request: (w) => ({ params: ownerMessage(w), query: { scope: 'PERSONAL' } }),
  }),
  row({
    operationId: 'listPinnedMessages',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/pinned',
    audience: 'room',
    setup: (w) => w.pinInRoom(w.ownerMessageId),
    request: (w) => ({ params: room(w) }),
  }),
  row({
    operationId: 'snapMessage',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/snap',
    audience: 'room',
    allowed: ['admin', 'owner'],
    request: (w) => ({ params: ownerMessage(w) }),
  }),
  row({
    operationId: 'getSnap',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/snap',
    audience: 'room',
    setup: (w) => w.snap(w.ownerMessageId),
    request: (w) => ({ params: room(w) }),
  }),
  row({
    operationId: 'removeSnap',
    method: 'DELETE',
    path: '/api/v1/rooms/{roomId}/snap',
    audience: 'room',
    allowed: ['admin', 'owner'],
    // Snapped again before each call, so every allowed call removes a banner.
    prepare: (w) => w.snap(w.ownerMessageId),
    request: (w) => ({ params: room(w) }),
  }),
];

const threads: Row[] = [
  row({
    operationId: 'listThreads',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/threads',
    audience: 'room',
    setup: (w) => w.thread(),
    request: (w) => ({ params: room(w) }),
  }),
  row({
    operationId: 'listThreadMessages',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/threads/{rootId}',
    audience: 'room',
    setup: (w) => w.thread(),
    request: (w, _p, t) => ({ params: { roomId: w.roomId, rootId: t.rootId } }),
  }),
  row({
    operationId: 'followThread',
    method: 'POST',
    path: '/api/v1/threads/{rootId}/follow',
    audience: 'room',
    setup: (w) => w.thread(),
    request: (_w, _p, t) => ({ params: { rootId: t.rootId } }),
  }),
  row({
    operationId: 'unfollowThread',
    method: 'DELETE',
    path: '/api/v1/threads/{rootId}/follow',
    audience: 'room',
    setup: async (w) => {
      const t = await w.thread();
      await perMember((p) => w.follow(w.accountOf(p)!.id, t.rootId));
      return t;
    },
    request: (_w, _p, t) => ({ params: { rootId: t.rootId } }),
  }),
  row({
    operationId: 'markThreadRead',
    method: 'POST',
    path: '/api/v1/threads/{rootId}/read',
    audience: 'room',
    setup: (w) => w.thread(),
    request: (_w, _p, t) => ({ params: { rootId: t.rootId }, body: { messageId: t.replyId } }),
  }),
  row({
    operationId: 'listThreadFollowers',
    method: 'GET',
    path: '/api/v1/threads/{rootId}/followers',
    audience: 'room',
    setup: (w) => w.thread(),
    request: (_w, _p, t) => ({ params: { rootId: t.rootId } }),
  }),
];

export const chatRows: Row[] = [...health, ...administration, ...callerScoped, ...rooms, ...members, ...messages, ...pins, ...threads];
