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
  if (res.status < 200 || res.status >= 300)
    throw new Error(`seeding the chat suite: ${method} ${path} answered ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text).data;
}

/**
 * Accounts dave, erin and frank join alice's module and customer (the dev ones); then, as alice unless said:
 * - main: a group of alice (owner), carol and dave, with messages, a thread (root and two replies), a snap banner,
 *   a reaction and a message alice hid; the room of every room-scoped operation;
 * - approval: a group whose add policy needs approval, where bob (a member) asked for dave, erin and frank;
 * - twelve rooms of bob's that alice is a member of (for leave) and twelve of alice's own (for delete);
 * - three messages in main kept for recall;
 * - and binds the plan administration operations to a workspace the runner made for them alone.
 */
export async function seedChat({ baseUrl, tokens, accounts, bots, fenced, planWorkspace }) {
  const { alice, bob, carol, gina, hank, admin } = tokens;
  const [dave, erin, frank] = [randomUUID(), randomUUID(), randomUUID()];
  for (const [id, displayName] of [
    [dave, 'Dave'],
    [erin, 'Erin'],
    [frank, 'Frank'],
  ]) {
    await api(baseUrl, admin, 'POST', '/api/v1/accounts/register', { id, moduleCode: 'dev', customerAccountId: 'dev', displayName });
  }
  // Throwaway accounts for eraseAccount, which may erase nothing the other operations stand on (protect, below).
  const erasable = [randomUUID(), randomUUID()];
  for (const id of erasable) {
    await api(baseUrl, admin, 'POST', '/api/v1/accounts/register', {
      id,
      moduleCode: 'dev',
      customerAccountId: 'dev',
      displayName: 'Erasable',
    });
  }
  const subjectOf = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub;
  const unerasable = [
    ...new Set([...Object.values(accounts), dave, erin, frank, ...fenced.accountIds, ...Object.values(tokens).map(subjectOf)]),
  ];
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
  // carol mentions alice (the suite's caller), so marking a mention read has a mention to mark.
  const mentionOfAlice = (await send(carol, main, { text: `<@${accounts.alice}> have a look` })).id;
  const recallable = [];
  for (let i = 0; i < 3; i++) recallable.push((await send(alice, main, { text: `to recall ${i}` })).id);

  const approval = (
    await room(alice, { name: 'Contract approval', addMemberPolicy: 'ALL_MEMBERS_WITH_APPROVAL', memberIds: [accounts.bob] })
  ).id;
  const asked = await api(baseUrl, bob, 'POST', `/api/v1/rooms/${approval}/members`, { accountIds: [dave, erin, frank] });
  const requestOf = (id) => asked.pending.find((r) => r.accountId === id).id;

  const leavable = [];
  const deletable = [];
  // Cases of the coverage phase that the server accepts delete or leave too, before fuzzing starts.
  for (let i = 0; i < 12; i++) {
    leavable.push((await room(bob, { name: `Bob's ${i}`, memberIds: [accounts.alice] })).id);
    deletable.push((await room(alice, { name: `Disposable ${i}` })).id);
  }

  // Saved messages of alice: one to update, three to unsave (saving is idempotent per message).
  const save = async (messageId) => (await api(baseUrl, alice, 'POST', '/api/v1/me/saved', { roomId: main, messageId })).savedId;
  const saved = [await save(others[0])];
  const unsavable = [await save(others[1]), await save(others[2]), await save(root)];

  // Polls in main: a single-choice one to read and vote on, and three to close.
  const poll = () =>
    api(baseUrl, alice, 'POST', `/api/v1/rooms/${main}/polls`, { question: 'Lunch?', options: ['Pizza', 'Salad', 'Soup'] });
  const votable = await poll();
  const closable = [(await poll()).id, (await poll()).id, (await poll()).id];

  // Reminders and scheduled messages of alice, due in a month: one to read and change, three to delete.
  const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const reminder = async () =>
    (await api(baseUrl, alice, 'POST', '/api/v1/reminders', { text: 'Contract reminder', remindAt: inAMonth })).id;
  const reminders = [await reminder()];
  const deletableReminders = [await reminder(), await reminder(), await reminder()];
  const schedule = async () =>
    (await api(baseUrl, alice, 'POST', `/api/v1/rooms/${main}/messages/scheduled`, { text: 'Contract later', sendAt: inAMonth })).id;
  const scheduled = [await schedule()];
  const deletableScheduled = [await schedule(), await schedule(), await schedule()];

  // A contact request from carol to alice, for alice to accept (accepting again answers it unchanged).
  const contactRequest = (await api(baseUrl, carol, 'POST', '/api/v1/contacts/requests', { accountId: accounts.alice })).id;
  // One from gina for alice to decline, one of alice to dave for her to cancel, and an accepted contact of alice and
  // hank (mutual invitations) for her to remove; repeating each move answers the request unchanged.
  const declinable = (await api(baseUrl, gina, 'POST', '/api/v1/contacts/requests', { accountId: accounts.alice })).id;
  const cancellable = (await api(baseUrl, alice, 'POST', '/api/v1/contacts/requests', { accountId: dave })).id;
  const removable = (await api(baseUrl, alice, 'POST', '/api/v1/contacts/requests', { accountId: accounts.hank })).id;
  await api(baseUrl, hank, 'POST', '/api/v1/contacts/requests', { accountId: accounts.alice });

  // A RULE channel of alice, for the rule's replacement (a rule is an object: no dictionary can hold one).
  const rule = { field: 'team', equals: 'core' };
  const ruleChannel = (await api(baseUrl, alice, 'POST', '/api/v1/channels', { name: 'Contract rule', membershipMode: 'RULE', rule })).id;
  // An EXPLICIT channel of alice, for adding members.
  const explicitChannel = (await api(baseUrl, alice, 'POST', '/api/v1/channels', { name: 'Contract members', membershipMode: 'EXPLICIT' }))
    .id;

  // Bots of the platform administrator besides the bot suite's own: three whose token and webhook may be replaced, and
  // twelve to delete (the coverage phase's accepted cases delete some before fuzzing starts).
  const bot = async (role, i) =>
    (
      await api(baseUrl, admin, 'POST', '/api/v1/bots', {
        username: `contract_${role}_${i}_${randomUUID().slice(0, 8)}`,
        displayName: `Contract ${role} ${i}`,
        moduleCode: 'dev',
        customerAccountId: 'dev',
      })
    ).bot.id;
  const spareBots = [];
  const deletableBots = [];
  for (let i = 0; i < 3; i++) spareBots.push(await bot('spare', i));
  for (let i = 0; i < 12; i++) deletableBots.push(await bot('disposable', i));

  // Instants a scheduled message or a one-time reminder may be set for (after now, within five years), and time zones.
  const future = [1, 7, 90, 400].map((days) => new Date(Date.now() + days * 86_400_000).toISOString());

  // An export of alice's, waited for (briefly) so that its download is served; later starts answer 409 while one runs.
  const exportId = (await api(baseUrl, alice, 'POST', '/api/v1/me/exports')).id;
  for (let i = 0; i < 100 && (await api(baseUrl, alice, 'GET', `/api/v1/me/exports/${exportId}`)).state !== 'done'; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));

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
      mentions: [mentionOfAlice],
      approvable: [requestOf(dave)],
      rejectable: [requestOf(erin), requestOf(frank)],
      emojis: ['👍'],
      saved,
      unsavable,
      polls: [votable.id],
      pollOptions: votable.options.map((o) => o.id),
      closablePolls: closable,
      reminders,
      deletableReminders,
      scheduled,
      deletableScheduled,
      contactRequests: [contactRequest],
      declinableContacts: [declinable],
      cancellableContacts: [cancellable],
      removableContacts: [removable],
      ruleChannels: [ruleChannel],
      explicitChannels: [explicitChannel],
      futureInstants: future,
      timeZones: ['UTC', 'Europe/Berlin', 'America/New_York'],
      uploadTypes: ['image/png', 'application/pdf', 'text/plain'],
      uploadSizes: [1, 1024, 1048576],
      bots: [bots.botId],
      spareBots,
      deletableBots,
      botRooms: [bots.roomId],
      keyboardRooms: [bots.keyboardRoomId],
      keyboards: [bots.keyboardId],
      callbackData: [bots.callbackData],
      planWorkspaces: [planWorkspace],
      erasableAccounts: erasable,
      exports: [exportId],
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
      'body.roomId': 'rooms',
      'path.savedId': 'saved',
      'path.pollId': 'polls',
      'body.optionIds[*]': 'pollOptions',
      'path.requestId': 'contactRequests',
      'body.remindAt': 'futureInstants',
      'body.sendAt': 'futureInstants',
      'body.recurrence.timeZone': 'timeZones',
      'body.contentType': 'uploadTypes',
      'body.size': 'uploadSizes',
      'path.exportId': 'exports',
    },
    // Bindings of single operations (path.id also names accounts on the admin operations, which stay unbound).
    operations: {
      ...Object.fromEntries(
        ['getRoom', 'updateRoom', 'archiveRoom', 'unarchiveRoom', 'muteRoom', 'unmuteRoom', 'updateRoomPreferences'].map((op) => [
          op,
          { 'path.id': 'ownRooms' },
        ]),
      ),
      deleteRoom: { 'path.id': 'deletableRooms' },
      leaveRoom: { 'path.id': 'leavableRooms' },
      listJoinRequests: { 'path.roomId': 'approvalRooms' },
      approveJoinRequest: { 'path.roomId': 'approvalRooms', 'path.requestId': 'approvable' },
      rejectJoinRequest: { 'path.roomId': 'approvalRooms', 'path.requestId': 'rejectable' },
      recallMessage: { 'path.messageId': 'recallable' },
      markMentionRead: { 'path.messageId': 'mentions' },
      markThreadRead: { 'body.messageId': 'threadMessages' },
      unsaveMessage: { 'path.savedId': 'unsavable' },
      closePoll: { 'path.pollId': 'closablePolls' },
      getReminder: { 'path.id': 'reminders' },
      updateReminder: { 'path.id': 'reminders' },
      deleteReminder: { 'path.id': 'deletableReminders' },
      getScheduledMessage: { 'path.id': 'scheduled' },
      updateScheduledMessage: { 'path.id': 'scheduled' },
      deleteScheduledMessage: { 'path.id': 'deletableScheduled' },
      setBotRoomReadAll: { 'path.id': 'bots', 'path.roomId': 'botRooms' },
      ...Object.fromEntries(['getBot', 'updateBot', 'regenerateBotToken', 'setBotWebhook'].map((op) => [op, { 'path.id': 'spareBots' }])),
      deleteBot: { 'path.id': 'deletableBots' },
      ...Object.fromEntries(['getWorkspacePlan', 'setWorkspacePlan'].map((op) => [op, { 'path.workspaceId': 'planWorkspaces' }])),
      updateChannelRule: { 'path.id': 'ruleChannels' },
      addChannelMember: { 'path.id': 'explicitChannels' },
      declineContactRequest: { 'path.requestId': 'declinableContacts' },
      cancelContactRequest: { 'path.requestId': 'cancellableContacts' },
      removeContact: { 'path.requestId': 'removableContacts' },
      pressInlineButton: { 'path.roomId': 'keyboardRooms', 'path.messageId': 'keyboards', 'body.data': 'callbackData' },
      eraseAccount: { 'path.accountId': 'erasableAccounts' },
    },
    // Rules of the rule language for half of the valid cases of the rule's replacement (see hooks.py).
    objects: {
      updateChannelRule: {
        rule: [
          rule,
          { field: 'tags', contains: 'oncall' },
          { any: [{ field: 'role', in: ['lead', 'manager'] }, { not: { field: 'department', equals: 'sales' } }] },
        ],
      },
    },
    // Cases that would delete or leave the seeded rooms, or demote alice in them, are not sent (see hooks.py).
    protect: {
      deleteRoom: [{ id: [main, approval] }],
      leaveRoom: [{ id: [main, approval] }],
      changeRoomMemberRole: [{ roomId: [main, approval], accountId: [accounts.alice] }],
      // The bot whose keyboard is pressed, and the bot suite's bot (fenced), which runs beside this suite with its
      // token: these would end it, take it over or change it; nor may its account or its rooms' owner be deactivated.
      deleteBot: [{ id: [bots.botId, fenced.botId, ...spareBots] }],
      regenerateBotToken: [{ id: [bots.botId, fenced.botId] }],
      setBotWebhook: [{ id: [bots.botId, fenced.botId] }],
      updateBot: [{ id: [fenced.botId] }],
      updateAccountStatus: [{ id: fenced.accountIds }],
      // A poll closed cannot take votes any more: only the polls kept for closing are closed.
      closePoll: [{ pollId: [votable.id] }],
      // The RULE channel whose rule is replaced, and the EXPLICIT one members are added to, stay.
      deleteChannel: [{ id: [ruleChannel, explicitChannel] }],
      // Only the throwaway accounts are erased: every account of the run, its callers and the bot suite's stay.
      eraseAccount: [{ accountId: unerasable }],
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
        'body.roomId': main,
        'path.savedId': saved[0],
        'path.pollId': votable.id,
        'body.optionIds[*]': votable.options[0].id,
        'path.requestId': contactRequest,
        'body.remindAt': future[1],
        'body.sendAt': future[1],
        'body.recurrence.timeZone': 'Europe/Berlin',
        'body.contentType': 'image/png',
        'body.size': 1024,
        'path.exportId': exportId,
        // Options that differ (the server compares them trimmed and ignoring case).
        'body.rule': rule,
        'body.options[*]': ['Pizza', 'Salad', 'Soup', 'Curry', 'Tacos', 'Ramen', 'Pho', 'Dal', 'Stew', 'Pie'],
      },
      operations: {
        ...Object.fromEntries(
          ['getRoom', 'updateRoom', 'archiveRoom', 'unarchiveRoom', 'muteRoom', 'unmuteRoom', 'updateRoomPreferences'].map((op) => [
            op,
            { 'path.id': main },
          ]),
        ),
        deleteRoom: { 'path.id': deletable[0] },
        leaveRoom: { 'path.id': leavable[0] },
        listJoinRequests: { 'path.roomId': approval },
        approveJoinRequest: { 'path.roomId': approval, 'path.requestId': requestOf(dave) },
        rejectJoinRequest: { 'path.roomId': approval, 'path.requestId': requestOf(erin) },
        recallMessage: { 'path.messageId': recallable[0] },
        markMentionRead: { 'path.messageId': mentionOfAlice },
        markThreadRead: { 'body.messageId': replies[0] },
        unsaveMessage: { 'path.savedId': unsavable[0] },
        closePoll: { 'path.pollId': closable[0] },
        ...Object.fromEntries(['getReminder', 'updateReminder'].map((op) => [op, { 'path.id': reminders[0] }])),
        deleteReminder: { 'path.id': deletableReminders[0] },
        declineContactRequest: { 'path.requestId': declinable },
        cancelContactRequest: { 'path.requestId': cancellable },
        removeContact: { 'path.requestId': removable },
        ...Object.fromEntries(['getScheduledMessage', 'updateScheduledMessage'].map((op) => [op, { 'path.id': scheduled[0] }])),
        deleteScheduledMessage: { 'path.id': deletableScheduled[0] },
        setBotRoomReadAll: { 'path.id': bots.botId, 'path.roomId': bots.roomId },
        ...Object.fromEntries(
          ['getBot', 'updateBot', 'regenerateBotToken', 'setBotWebhook'].map((op) => [op, { 'path.id': spareBots[0] }]),
        ),
        deleteBot: { 'path.id': deletableBots[0] },
        updateChannelRule: { 'path.id': ruleChannel },
        addChannelMember: { 'path.id': explicitChannel },
        pressInlineButton: { 'path.roomId': bots.keyboardRoomId, 'path.messageId': bots.keyboardId, 'body.data': bots.callbackData },
        eraseAccount: { 'path.accountId': erasable[0] },
      },
    },
  };
}
