// The chat events the code may write: the topics the chat document declares (spec/chat/events.tsp, generated into
// the `webhooks` map of generated/types/chat.ts; docs/events.md lists them). A topic the document does not declare
// fails to compile, and test/integration/event-topics.test.ts holds this list equal to docs/events.md.
import type { webhooks } from '../../../generated/types/chat.js';

export type ChatTopic = keyof webhooks & string;

/** The body a client receives for `T`: the stored fields, `audience`, and the views the relay adds. */
export type DeclaredPayload<T extends ChatTopic> = webhooks[T]['post']['requestBody']['content']['application/json']['payload'];

/** A declared body without its open index signature, so that an undeclared field fails to compile. */
type Declared<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** What the relay adds to a stored payload (src/chat/realtime/event-views.ts): the views and the truncation mark. */
export type RelayViewField = 'message' | 'rootThread' | 'reactions' | 'room' | 'members' | 'truncated';

/**
 * The fields an event of topic `T` is written with: its declared body without the audience (emit adds it) and
 * without the relay's views. Every stored payload is therefore a part of the declared body, and the relay's
 * additions complete it.
 */
export type EventFields<T extends ChatTopic> = Omit<Declared<DeclaredPayload<T>>, 'audience' | RelayViewField>;

// A record keyed by every declared topic: a topic added to the document and missing here (or the reverse) fails to
// compile, so the runtime list below is the type's.
const declared: Record<ChatTopic, true> = {
  'account.metadata_changed': true,
  'account.status_changed': true,
  'bot.callback_answered': true,
  'bot.callback_query': true,
  'bot.chat_action': true,
  'bot.created': true,
  'bot.deleted': true,
  'bot.read_all_changed': true,
  'bot.token_regenerated': true,
  'bot.updated': true,
  'bot.webhook_removed': true,
  'bot.webhook_set': true,
  'broadcast.created': true,
  'broadcast.read': true,
  'channel.created': true,
  'channel.deleted': true,
  'channel.members_added': true,
  'channel.members_removed': true,
  'channel.preferences_changed': true,
  'channel.rule_changed': true,
  'channel.updated': true,
  'contact_request.accepted': true,
  'contact_request.cancelled': true,
  'contact_request.created': true,
  'contact_request.declined': true,
  'contact_request.removed': true,
  'draft.deleted': true,
  'draft.saved': true,
  'join_request.approved': true,
  'join_request.created': true,
  'join_request.rejected': true,
  'label.created': true,
  'label.deleted': true,
  'label.updated': true,
  'member.added': true,
  'member.left': true,
  'member.removed': true,
  'member.role_changed': true,
  'mention.created': true,
  'mention.read': true,
  'mention.removed': true,
  'message.created': true,
  'message.anonymized': true,
  'message.edited': true,
  'message.expired': true,
  'message.hidden': true,
  'message.read': true,
  'message.recalled': true,
  'message.restored': true,
  'pin.added': true,
  'pin.removed': true,
  'poll.closed': true,
  'poll.created': true,
  'poll.voted': true,
  'reaction.added': true,
  'reaction.removed': true,
  'reminder.cancelled': true,
  'reminder.created': true,
  'reminder.fired': true,
  'reminder.updated': true,
  'room.created': true,
  'room.deleted': true,
  'room.labels_changed': true,
  'room.preferences_changed': true,
  'room.read': true,
  'room.updated': true,
  'saved.added': true,
  'saved.removed': true,
  'saved.updated': true,
  'scheduled_message.cancelled': true,
  'scheduled_message.created': true,
  'scheduled_message.failed': true,
  'scheduled_message.sent': true,
  'scheduled_message.updated': true,
  'snap.removed': true,
  'snap.set': true,
  'thread.followed': true,
  'thread.read': true,
  'thread.unfollowed': true,
  'upload.completed': true,
  'upload.created': true,
  'upload.expired': true,
  'upload.purged': true,
  'upload.started': true,
  'upload.terminated': true,
};

/** Every chat topic, in the document's order. */
export const chatTopics = Object.keys(declared) as ChatTopic[];
