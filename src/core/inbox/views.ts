// The rows of the inbox tables (conversations, messages, channels) and the records their events carry (the workspace API's shapes, which it also serves,
// so a webhook receives the same data whichever API made the change).
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/types/workspace.js';
import type { CoreTables } from '../tables.js';

type Schemas = components['schemas'];
export type ConversationView = Schemas['Inbox.Conversation'];
export type MessageView = Schemas['Inbox.Message'];

/** first_response_at: when the first outbound message was sent; null before it (inbox reports measure by it). */
export const conversationColumns = [
  'id',
  'channel',
  'subject',
  'contact_id',
  'customer_handle',
  'status',
  'assignee_id',
  'last_message_at',
  'first_response_at',
  'closed_at',
  'created_at',
  'updated_at',
] as const;

export type ConversationRow = Pick<Selectable<CoreTables['inbox_conversations']>, (typeof conversationColumns)[number]>;

export function conversationView(r: ConversationRow): ConversationView {
  return {
    id: r.id,
    channel: r.channel as ConversationView['channel'],
    subject: r.subject,
    contact_id: r.contact_id,
    customer_handle: r.customer_handle,
    status: r.status as ConversationView['status'],
    assignee_id: r.assignee_id,
    last_message_at: r.last_message_at?.toISOString() ?? null,
    closed_at: r.closed_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export const channelKinds = ['email', 'sms', 'whatsapp', 'webchat', 'phone', 'other'] as const;
export type ChannelKind = (typeof channelKinds)[number];
export type ChannelStatus = 'active' | 'paused';

export const channelColumns = ['id', 'kind', 'name', 'status', 'created_at', 'updated_at'] as const;

/** The kind and the status as the table's checks constrain them. */
export type ChannelChecked = { kind: ChannelKind; status: ChannelStatus };

export type ChannelRow = Omit<Pick<Selectable<CoreTables['inbox_channels']>, (typeof channelColumns)[number]>, keyof ChannelChecked> &
  ChannelChecked;

export const messageColumns = ['id', 'conversation_id', 'direction', 'text', 'author_id', 'created_at'] as const;

export type MessageRow = Pick<Selectable<CoreTables['inbox_messages']>, (typeof messageColumns)[number]>;

export function messageView(r: MessageRow): MessageView {
  return {
    id: r.id,
    conversation_id: r.conversation_id,
    direction: r.direction as MessageView['direction'],
    text: r.text,
    author_id: r.author_id,
    created_at: r.created_at.toISOString(),
  };
}
