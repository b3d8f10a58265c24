// The route table of the chat API: one entry per operationId of generated/openapi/chat.json.
//
// Exhaustiveness: `operationRoutes` is checked with `satisfies { [K in OperationId]: RouteOf<K> }`, a mapped type
// over `keyof operations` of the generated schema. When the spec gains an operation, `operations` gains a key and
// this object literal stops type-checking ("Property 'newOp' is missing") until a route is added here; when one is
// removed, the stale entry is an excess property. RouteOf<K> only admits the (method, path) pairs of `paths` whose
// operation type is operations[K], so a wrong method or path fails too. The SDK's methods are a mapped type over the
// same keys and are built from this table at run time, so covering the route is all a new operation needs.
import type { operations, paths } from './schema.js';

export type OperationId = keyof operations;

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** True when A and B are mutually assignable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Every `{ method, path }` of `paths` whose operation is operations[K]. */
export type RouteOf<K extends OperationId> = {
  [P in keyof paths]: {
    [M in HttpMethod & keyof paths[P]]: Same<NonNullable<paths[P][M]>, operations[K]> extends true
      ? { readonly method: M; readonly path: P; readonly public?: true }
      : never;
  }[HttpMethod & keyof paths[P]];
}[keyof paths];

/**
 * operationId → HTTP method and path template. `public: true` marks operations whose spec security is `[{}]`
 * (no bearer token); the auth middleware leaves those alone. sdk/chat/test/sdk.test.ts checks this table against
 * generated/openapi/chat.json at run time as well.
 */
export const operationRoutes = {
  registerAccount: { method: 'post', path: '/api/v1/accounts/register' },
  updateAccountMetadata: { method: 'patch', path: '/api/v1/accounts/{id}/metadata' },
  updateAccountStatus: { method: 'patch', path: '/api/v1/accounts/{id}/status' },
  listModules: { method: 'get', path: '/api/v1/admin/modules' },
  createModule: { method: 'post', path: '/api/v1/admin/modules' },
  listCustomerKeys: { method: 'get', path: '/api/v1/admin/modules/{code}/customers/{customerAccountId}/keys' },
  registerCustomerKey: { method: 'post', path: '/api/v1/admin/modules/{code}/customers/{customerAccountId}/keys' },
  refreshCustomerKeys: { method: 'post', path: '/api/v1/admin/modules/{code}/customers/{customerAccountId}/keys/refresh' },
  getWorkspacePlan: { method: 'get', path: '/api/v1/admin/workspaces/{workspaceId}/plan' },
  setWorkspacePlan: { method: 'put', path: '/api/v1/admin/workspaces/{workspaceId}/plan' },
  listRooms: { method: 'get', path: '/api/v1/rooms' },
  createRoom: { method: 'post', path: '/api/v1/rooms' },
  getOrCreatePrivateRoom: { method: 'post', path: '/api/v1/rooms/private' },
  getOrCreateSelfRoom: { method: 'post', path: '/api/v1/rooms/self' },
  getRoom: { method: 'get', path: '/api/v1/rooms/{id}' },
  getOrCreateReminderRoom: { method: 'post', path: '/api/v1/rooms/reminders' },
  updateRoom: { method: 'patch', path: '/api/v1/rooms/{id}' },
  deleteRoom: { method: 'delete', path: '/api/v1/rooms/{id}' },
  archiveRoom: { method: 'post', path: '/api/v1/rooms/{id}/archive' },
  unarchiveRoom: { method: 'post', path: '/api/v1/rooms/{id}/unarchive' },
  muteRoom: { method: 'post', path: '/api/v1/rooms/{id}/mute' },
  unmuteRoom: { method: 'delete', path: '/api/v1/rooms/{id}/mute' },
  leaveRoom: { method: 'post', path: '/api/v1/rooms/{id}/leave' },
  updateRoomPreferences: { method: 'patch', path: '/api/v1/rooms/{id}/preferences' },
  markRoomRead: { method: 'post', path: '/api/v1/rooms/{roomId}/read' },
  listRoomMembers: { method: 'get', path: '/api/v1/rooms/{roomId}/members' },
  addRoomMembers: { method: 'post', path: '/api/v1/rooms/{roomId}/members' },
  changeRoomMemberRole: { method: 'patch', path: '/api/v1/rooms/{roomId}/members/{accountId}/role' },
  listJoinRequests: { method: 'get', path: '/api/v1/rooms/{roomId}/join-requests' },
  approveJoinRequest: { method: 'post', path: '/api/v1/rooms/{roomId}/join-requests/{requestId}/approve' },
  rejectJoinRequest: { method: 'post', path: '/api/v1/rooms/{roomId}/join-requests/{requestId}/reject' },
  listMessages: { method: 'get', path: '/api/v1/rooms/{roomId}/messages' },
  sendMessage: { method: 'post', path: '/api/v1/rooms/{roomId}/messages' },
  getMessage: { method: 'get', path: '/api/v1/rooms/{roomId}/messages/{messageId}' },
  editMessage: { method: 'patch', path: '/api/v1/rooms/{roomId}/messages/{messageId}' },
  hideMessage: { method: 'delete', path: '/api/v1/rooms/{roomId}/messages/{messageId}' },
  restoreMessage: { method: 'post', path: '/api/v1/rooms/{roomId}/messages/{messageId}/restore' },
  recallMessage: { method: 'post', path: '/api/v1/rooms/{roomId}/messages/{messageId}/recall' },
  listReactions: { method: 'get', path: '/api/v1/rooms/{roomId}/messages/{messageId}/reactions' },
  addReaction: { method: 'post', path: '/api/v1/rooms/{roomId}/messages/{messageId}/reactions' },
  removeReaction: { method: 'delete', path: '/api/v1/rooms/{roomId}/messages/{messageId}/reactions/{emoji}' },
  forwardMessages: { method: 'post', path: '/api/v1/rooms/{roomId}/forward' },
  pinMessage: { method: 'post', path: '/api/v1/rooms/{roomId}/messages/{messageId}/pin' },
  unpinMessage: { method: 'delete', path: '/api/v1/rooms/{roomId}/messages/{messageId}/pin' },
  listPinnedMessages: { method: 'get', path: '/api/v1/rooms/{roomId}/pinned' },
  snapMessage: { method: 'post', path: '/api/v1/rooms/{roomId}/messages/{messageId}/snap' },
  getSnap: { method: 'get', path: '/api/v1/rooms/{roomId}/snap' },
  removeSnap: { method: 'delete', path: '/api/v1/rooms/{roomId}/snap' },
  listThreads: { method: 'get', path: '/api/v1/rooms/{roomId}/threads' },
  listThreadMessages: { method: 'get', path: '/api/v1/rooms/{roomId}/threads/{rootId}' },
  followThread: { method: 'post', path: '/api/v1/threads/{rootId}/follow' },
  unfollowThread: { method: 'delete', path: '/api/v1/threads/{rootId}/follow' },
  markThreadRead: { method: 'post', path: '/api/v1/threads/{rootId}/read' },
  listThreadFollowers: { method: 'get', path: '/api/v1/threads/{rootId}/followers' },
  getUnreadThreadCount: { method: 'get', path: '/api/v1/threads/unread-count' },
  listChannels: { method: 'get', path: '/api/v1/channels' },
  createChannel: { method: 'post', path: '/api/v1/channels' },
  getChannel: { method: 'get', path: '/api/v1/channels/{id}' },
  updateChannel: { method: 'patch', path: '/api/v1/channels/{id}' },
  deleteChannel: { method: 'delete', path: '/api/v1/channels/{id}' },
  updateChannelRule: { method: 'put', path: '/api/v1/channels/{id}/rule' },
  listChannelMembers: { method: 'get', path: '/api/v1/channels/{id}/members' },
  addChannelMember: { method: 'post', path: '/api/v1/channels/{id}/members' },
  updateChannelPreferences: { method: 'patch', path: '/api/v1/channels/{id}/preferences' },
  listContactRequests: { method: 'get', path: '/api/v1/contacts/requests' },
  createContactRequest: { method: 'post', path: '/api/v1/contacts/requests' },
  acceptContactRequest: { method: 'post', path: '/api/v1/contacts/requests/{requestId}/accept' },
  declineContactRequest: { method: 'post', path: '/api/v1/contacts/requests/{requestId}/decline' },
  cancelContactRequest: { method: 'post', path: '/api/v1/contacts/requests/{requestId}/cancel' },
  removeContact: { method: 'post', path: '/api/v1/contacts/requests/{requestId}/remove' },
  createBroadcast: { method: 'post', path: '/api/v1/admin/broadcasts' },
  createTargetedBroadcast: { method: 'post', path: '/api/v1/admin/broadcasts/targeted' },
  listMyBroadcasts: { method: 'get', path: '/api/v1/me/broadcasts' },
  getBroadcastUnreadCount: { method: 'get', path: '/api/v1/me/broadcasts/unread-count' },
  markBroadcastsRead: { method: 'post', path: '/api/v1/me/broadcasts/read' },
  getDraft: { method: 'get', path: '/api/v1/me/rooms/{roomId}/draft' },
  saveDraft: { method: 'put', path: '/api/v1/me/rooms/{roomId}/draft' },
  deleteDraft: { method: 'delete', path: '/api/v1/me/rooms/{roomId}/draft' },
  getCustomerRetention: { method: 'get', path: '/api/v1/admin/retention' },
  setCustomerRetention: { method: 'put', path: '/api/v1/admin/retention' },
  getRoomRetention: { method: 'get', path: '/api/v1/rooms/{roomId}/retention' },
  setRoomRetention: { method: 'put', path: '/api/v1/rooms/{roomId}/retention' },
  listLabels: { method: 'get', path: '/api/v1/me/labels' },
  createLabel: { method: 'post', path: '/api/v1/me/labels' },
  updateLabel: { method: 'patch', path: '/api/v1/me/labels/{labelId}' },
  deleteLabel: { method: 'delete', path: '/api/v1/me/labels/{labelId}' },
  setRoomLabels: { method: 'put', path: '/api/v1/me/rooms/{roomId}/labels' },
  listSavedMessages: { method: 'get', path: '/api/v1/me/saved' },
  listMentions: { method: 'get', path: '/api/v1/me/mentions' },
  markMentionsRead: { method: 'post', path: '/api/v1/me/mentions/read' },
  markMentionRead: { method: 'post', path: '/api/v1/me/mentions/{messageId}/read' },
  saveMessage: { method: 'post', path: '/api/v1/me/saved' },
  updateSavedMessage: { method: 'patch', path: '/api/v1/me/saved/{savedId}' },
  unsaveMessage: { method: 'delete', path: '/api/v1/me/saved/{savedId}' },
  searchMessages: { method: 'get', path: '/api/v1/search/messages' },
  createPoll: { method: 'post', path: '/api/v1/rooms/{roomId}/polls' },
  getPoll: { method: 'get', path: '/api/v1/polls/{pollId}' },
  votePoll: { method: 'post', path: '/api/v1/polls/{pollId}/votes' },
  closePoll: { method: 'post', path: '/api/v1/polls/{pollId}/close' },
  listMyEvents: { method: 'get', path: '/api/v1/me/events' },
  createUploadSession: { method: 'post', path: '/api/v1/files/upload-session' },
  listReminders: { method: 'get', path: '/api/v1/reminders' },
  createReminder: { method: 'post', path: '/api/v1/reminders' },
  getReminder: { method: 'get', path: '/api/v1/reminders/{id}' },
  updateReminder: { method: 'patch', path: '/api/v1/reminders/{id}' },
  deleteReminder: { method: 'delete', path: '/api/v1/reminders/{id}' },
  createScheduledMessage: { method: 'post', path: '/api/v1/rooms/{roomId}/messages/scheduled' },
  listScheduledMessages: { method: 'get', path: '/api/v1/messages/scheduled' },
  getScheduledMessage: { method: 'get', path: '/api/v1/messages/scheduled/{id}' },
  updateScheduledMessage: { method: 'patch', path: '/api/v1/messages/scheduled/{id}' },
  deleteScheduledMessage: { method: 'delete', path: '/api/v1/messages/scheduled/{id}' },
  listBots: { method: 'get', path: '/api/v1/bots' },
  createBot: { method: 'post', path: '/api/v1/bots' },
  getBot: { method: 'get', path: '/api/v1/bots/{id}' },
  updateBot: { method: 'patch', path: '/api/v1/bots/{id}' },
  deleteBot: { method: 'delete', path: '/api/v1/bots/{id}' },
  setBotWebhook: { method: 'post', path: '/api/v1/bots/{id}/webhook' },
  regenerateBotToken: { method: 'post', path: '/api/v1/bots/{id}/regenerate-token' },
  setBotRoomReadAll: { method: 'patch', path: '/api/v1/bots/{id}/rooms/{roomId}' },
  listWebhooks: { method: 'get', path: '/api/v1/webhooks' },
  createWebhook: { method: 'post', path: '/api/v1/webhooks' },
  pressInlineButton: { method: 'post', path: '/api/v1/rooms/{roomId}/messages/{messageId}/callback' },
  getReplyKeyboard: { method: 'get', path: '/api/v1/rooms/{roomId}/reply-keyboard' },
  sendTyping: { method: 'post', path: '/api/v1/rooms/{roomId}/typing' },
  setMyPresence: { method: 'put', path: '/api/v1/me/presence' },
  listMessageReceipts: { method: 'get', path: '/api/v1/rooms/{roomId}/messages/{messageId}/receipts' },
  getReceiptSettings: { method: 'get', path: '/api/v1/me/read-receipts' },
  setReceiptSettings: { method: 'put', path: '/api/v1/me/read-receipts' },
  listPresence: { method: 'get', path: '/api/v1/presence' },
  getHealth: { method: 'get', path: '/healthz', public: true },
  getReadiness: { method: 'get', path: '/readyz', public: true },
  eraseAccount: { method: 'post', path: '/api/v1/admin/accounts/{accountId}/erase' },
  getErasure: { method: 'get', path: '/api/v1/admin/erasures/{id}' },
  createExport: { method: 'post', path: '/api/v1/me/exports' },
  getExport: { method: 'get', path: '/api/v1/me/exports/{exportId}' },
  downloadExport: { method: 'get', path: '/api/v1/me/exports/{exportId}/download' },
} as const satisfies { readonly [K in OperationId]: RouteOf<K> };

/** Operations whose 2xx body is a file's bytes (an export's zip): the client resolves them to an ArrayBuffer. */
export const byteResponseOperations: ReadonlySet<OperationId> = new Set<OperationId>(['downloadExport']);

export const operationIds = Object.keys(operationRoutes) as OperationId[];

/** `${METHOD} ${path template}` of the operations that take no bearer token. */
export const publicRouteKeys: ReadonlySet<string> = new Set(
  Object.values(operationRoutes)
    .filter((r): r is Extract<typeof r, { public: true }> => 'public' in r && r.public === true)
    .map((r) => `${r.method.toUpperCase()} ${r.path}`),
);
