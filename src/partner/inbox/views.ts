// The inbox records as convention A serves them: the store's rows with their object names.
import type { components } from '../../../generated/types/partner.js';
import type { ChannelRow } from '../../core/inbox/channels.js';
import type { ConversationRow, MessageRow } from '../../core/inbox/views.js';

type Schemas = components['schemas'];
export type ConversationObject = Schemas['Inbox.Conversation'];
export type MessageObject = Schemas['Inbox.Message'];
export type ChannelObject = Schemas['Inbox.Channel'];

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function conversationObject(r: ConversationRow): ConversationObject {
  return {
    object: 'inbox.conversation',
    id: r.id,
    channel: r.channel as ConversationObject['channel'],
    subject: r.subject,
    contact_id: r.contact_id,
    customer_handle: r.customer_handle,
    status: r.status as ConversationObject['status'],
    assignee_id: r.assignee_id,
    last_message_at: iso(r.last_message_at),
    first_response_at: iso(r.first_response_at),
    closed_at: iso(r.closed_at),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function messageObject(r: MessageRow): MessageObject {
  return {
    object: 'inbox.message',
    id: r.id,
    conversation_id: r.conversation_id,
    direction: r.direction as MessageObject['direction'],
    text: r.text,
    author_id: r.author_id,
    created_at: r.created_at.toISOString(),
  };
}

export function channelObject(r: ChannelRow): ChannelObject {
  return {
    object: 'inbox.channel',
    id: r.id,
    kind: r.kind,
    name: r.name,
    status: r.status,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
