// Rows the chat suite's dictionaries point at, made through the API before Schemathesis starts: without them every
// operation on a room, message, thread or join request would only ever see random uuids and answer 404, and its
// logic past the membership check would never be fuzzed. Each operation that destroys what it touches (delete, leave,
// recall, approve, reject) draws from rows of its own, so it cannot take away the rows the others need.
import { randomUUID } from 'node:crypto';

/** One call as `token`; the `data` of a 2xx answer, else an error naming the call. */
async function api(baseUrl, token, method, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status < 200 || res.status >= 300) throw new Error(`seeding the chat suite: ${method} ${path} answered ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text).data;
}

/**
 * Accounts dave, erin and frank join alice's module and customer (the dev ones); then, as alice unless said:
 * - main: a group of alice (owner), carol and dave, with messages, a thread (root and two replies), a snap banner,
 *   a reaction and a message alice hid; the room of every room-scoped operation;
 * - approval: a group whose add policy needs approval, where bob (a member) asked for dave, erin and frank;
 * - twelve rooms of bob's that alice is a member of (for leave) and twelve of alice's own (for delete);
 * - three messages in main kept for recall.
 */
export async function seedChat({ baseUrl, tokens, accounts }) {
  const { alice, bob, carol, admin } = tokens;
  const [dave, erin, frank] = [randomUUID(), randomUUID(), randomUUID()];
  for (const [id, displayName] of [[dave, 'Dave'], [erin, 'Erin'], [frank, 'Frank']]) {
    await api(baseUrl, admin, 'POST', '/api/v1/accounts/register', { id, moduleCode: 'dev', customerAccountId: 'dev', displayName });
  }
  const room = (token, body) => api(baseUrl, token, 'POST', '/api/v1/rooms', { type: 'GROUP', ...body });
  const send = (token, roomId, body) => api(baseUrl, token, 'POST', `/api/v1/rooms/${roomId}/messages`, body);

  const main = (await room(alice, { name: 'Contract main', memberIds: [accounts.carol, dave] })).id;
  const root = (await send(alice, main, { text: 'thread root' })).id;
  const others = [
    (await send(alice, main, { text: 'first' })).id,
    (await send(carol, main, { text: 'from carol' })).id,
    (await send(alice, main, { text: 'snapped' })).id,
  ];
  const replies = [
    (await send(carol, main, { text: 'reply from carol', threadRootId: root })).id,
    (await send(alice, main, { text: 'reply from alice', threadRootId: root })).id,
  ];
  const hidden = (await send(alice, main, { text: 'hidden by alice' })).id;
  await api(baseUrl, alice, 'DELETE', `/api/v1/rooms/${main}/messages/${hidden}`);
  await api(baseUrl, alice, 'POST', `/api/v1/rooms/${main}/messages/${others[2]}/snap`);
  await api(baseUrl, alice, 'POST', `/api/v1/rooms/${main}/messages/${root}/reactions`, { emoji: '👍' });
  const recallable = [];
  for (let i = 0; i < 3; i++) recallable.push((await send(alice, main, { text: `to recall ${i}` })).id);

  const approval = (await room(alice, { name: 'Contract approval', addMemberPolicy: 'ALL_MEMBERS_WITH_APPROVAL', memberIds: [accounts.bob] })).id;
  const asked = await api(baseUrl, bob, 'POST', `/api/v1/rooms/${approval}/members`, { accountIds: [dave, erin, frank] });
  const requestOf = (id) => asked.pending.find((r) => r.accountId === id).id;

  const leavable = [];
  const deletable = [];
  // Cases of the coverage phase that the server accepts delete or leave too, before fuzzing starts.
  for (let i = 0; i < 12; i++) {
    leavable.push((await room(bob, { name: `Bob's ${i}`, memberIds: [accounts.alice] })).id);
    deletable.push((await room(alice, { name: `Disposable ${i}` })).id);
  }

  const forwardable = [root, ...others];
  return {
    dictionaries: {
      rooms: [main],
      ownRooms: [main, approval],
      approvalRooms: [approval],
      leavableRooms: leavable,
      deletableRooms: deletable,
      messages: [...forwardable, ...replies, hidden],
      forwardable,
      threadRoots: [root],
      threadMessages: [root, ...replies],
      recallable,
      approvable: [requestOf(dave)],
      rejectable: [requestOf(erin), requestOf(frank)],
      emojis: ['👍'],
    },
    // Bindings that apply to every operation with the parameter.
    parameters: {
      'path.roomId': 'rooms',
      'path.messageId': 'messages',
      'path.rootId': 'threadRoots',
      'path.emoji': 'emojis',
      'body.fromRoomId': 'rooms',
      'body.messageIds[*]': 'forwardable',
      'body.messageId': 'messages',
      'body.threadRootId': 'threadRoots',
    },
    // Bindings of single operations (path.id also names accounts on the admin operations, which stay unbound).
    operations: {
      ...Object.fromEntries(
        ['getRoom', 'updateRoom', 'archiveRoom', 'unarchiveRoom', 'muteRoom', 'unmuteRoom', 'updateRoomPreferences'].map((op) => [op, { 'path.id': 'ownRooms' }]),
      ),
      deleteRoom: { 'path.id': 'deletableRooms' },
      leaveRoom: { 'path.id': 'leavableRooms' },
      listJoinRequests: { 'path.roomId': 'approvalRooms' },
      approveJoinRequest: { 'path.roomId': 'approvalRooms', 'path.requestId': 'approvable' },
      rejectJoinRequest: { 'path.roomId': 'approvalRooms', 'path.requestId': 'rejectable' },
      recallMessage: { 'path.messageId': 'recallable' },
      markThreadRead: { 'body.messageId': 'threadMessages' },
    },
    // Cases that would delete or leave the seeded rooms, or demote alice in them, are not sent (see hooks.py).
    protect: {
      deleteRoom: [{ id: [main, approval] }],
      leaveRoom: [{ id: [main, approval] }],
      changeRoomMemberRole: [{ roomId: [main, approval], accountId: [accounts.alice] }],
    },
    // Ids for the positive cases of the coverage phase, which draws no dictionary values (see hooks.py): rows where
    // alice holds the role each operation needs, so that her first valid case on it is served.
    coverage: {
      parameters: {
        'path.roomId': main,
        'path.messageId': others[0],
        'path.rootId': root,
        'path.accountId': accounts.carol,
        'body.accountId': accounts.bob,
        'body.accountIds[*]': accounts.carol,
        'body.memberIds[*]': accounts.carol,
        'body.fromRoomId': main,
        'body.messageIds[*]': forwardable,
        'body.messageId': others[0],
      },
      operations: {
        ...Object.fromEntries(
          ['getRoom', 'updateRoom', 'archiveRoom', 'unarchiveRoom', 'muteRoom', 'unmuteRoom', 'updateRoomPreferences'].map((op) => [op, { 'path.id': main }]),
        ),
        deleteRoom: { 'path.id': deletable[0] },
        leaveRoom: { 'path.id': leavable[0] },
        listJoinRequests: { 'path.roomId': approval },
        approveJoinRequest: { 'path.roomId': approval, 'path.requestId': requestOf(dave) },
        rejectJoinRequest: { 'path.roomId': approval, 'path.requestId': requestOf(erin) },
        recallMessage: { 'path.messageId': recallable[0] },
        markThreadRead: { 'body.messageId': replies[0] },
      },
    },
  };
}
