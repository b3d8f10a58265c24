// The inbox tables (the store both conventions serve), as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../platform/db/reference.js';

export const InboxConversationEntity = defineEntity({
  name: 'InboxConversation',
  tableName: 'inbox_conversations',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'inbox_conversations_workspace_id_fkey'),
    environment: p.text(),
    channel: p.text(),
    subject: p.text().nullable(),
    contactId: p.uuid().fieldName('contact_id').nullable(),
    customerHandle: p.text().fieldName('customer_handle').nullable(),
    status: p.text(),
    assigneeId: p.uuid().fieldName('assignee_id').nullable(),
    lastMessageAt: p.datetime().fieldName('last_message_at').nullable(),
    firstResponseAt: p.datetime().fieldName('first_response_at').nullable(),
    closedAt: p.datetime().fieldName('closed_at').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'inbox_conversations_list',
      expression: 'CREATE INDEX inbox_conversations_list ON inbox_conversations USING btree (workspace_id, environment, id DESC)',
    },
    {
      name: 'inbox_conversations_opened',
      expression: 'CREATE INDEX inbox_conversations_opened ON inbox_conversations USING btree (workspace_id, environment, created_at)',
    },
    {
      name: 'inbox_conversations_closed',
      expression: 'CREATE INDEX inbox_conversations_closed ON inbox_conversations USING btree (workspace_id, environment, closed_at)',
    },
  ],
  checks: [
    {
      name: 'inbox_conversations_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
    {
      name: 'inbox_conversations_status_check',
      expression: "((status = ANY (ARRAY['open'::text, 'closed'::text])))",
    },
  ],
});
export type InboxConversation = InferEntity<typeof InboxConversationEntity>;

export const InboxMessageEntity = defineEntity({
  name: 'InboxMessage',
  tableName: 'inbox_messages',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'inbox_messages_workspace_id_fkey'),
    environment: p.text(),
    conversationId: reference(p.uuid().fieldName('conversation_id'), 'InboxConversation', 'inbox_messages_conversation_id_fkey'),
    direction: p.text(),
    text: p.text(),
    authorId: p.uuid().fieldName('author_id').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'inbox_messages_list',
      expression: 'CREATE INDEX inbox_messages_list ON inbox_messages USING btree (workspace_id, environment, id DESC)',
    },
    {
      name: 'inbox_messages_conversation',
      expression: 'CREATE INDEX inbox_messages_conversation ON inbox_messages USING btree (conversation_id, id DESC)',
    },
  ],
  checks: [
    {
      name: 'inbox_messages_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
    {
      name: 'inbox_messages_direction_check',
      expression: "((direction = ANY (ARRAY['inbound'::text, 'outbound'::text])))",
    },
  ],
});
export type InboxMessage = InferEntity<typeof InboxMessageEntity>;

export const InboxChannelEntity = defineEntity({
  name: 'InboxChannel',
  tableName: 'inbox_channels',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'inbox_channels_workspace_id_fkey'),
    environment: p.text(),
    kind: p.text(),
    name: p.text(),
    status: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  indexes: [
    {
      name: 'inbox_channels_list',
      expression: 'CREATE INDEX inbox_channels_list ON inbox_channels USING btree (workspace_id, environment, id DESC)',
    },
  ],
  checks: [
    {
      name: 'inbox_channels_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
    {
      name: 'inbox_channels_kind_check',
      expression: "((kind = ANY (ARRAY['email'::text, 'sms'::text, 'whatsapp'::text, 'webchat'::text, 'phone'::text, 'other'::text])))",
    },
    {
      name: 'inbox_channels_status_check',
      expression: "((status = ANY (ARRAY['active'::text, 'paused'::text])))",
    },
  ],
});
export type InboxChannel = InferEntity<typeof InboxChannelEntity>;
