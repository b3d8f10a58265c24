import { Migration } from '@mikro-orm/migrations';

/**
 * The inbox as partner keys see it: connected channels, the first-response time of a conversation (its first
 * outbound message, back-filled from the messages), indexes for reports by opening and closing time, and dev as an
 * environment (partner dev_ keys write the inbox too; their records emit no events).
 */
export class Migration20261125000400PartnerInbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table inbox_conversations add column first_response_at timestamptz;
      update inbox_conversations c set first_response_at = m.first
        from (select conversation_id, min(created_at) as first from inbox_messages where direction = 'outbound' group by conversation_id) m
        where m.conversation_id = c.id;
      create index inbox_conversations_opened on inbox_conversations (workspace_id, environment, created_at);
      create index inbox_conversations_closed on inbox_conversations (workspace_id, environment, closed_at);

      alter table inbox_conversations drop constraint inbox_conversations_environment_check;
      alter table inbox_conversations add constraint inbox_conversations_environment_check check (environment in ('live', 'test', 'dev'));
      alter table inbox_messages drop constraint inbox_messages_environment_check;
      alter table inbox_messages add constraint inbox_messages_environment_check check (environment in ('live', 'test', 'dev'));

      create table inbox_channels (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test', 'dev')),
        kind text not null check (kind in ('email', 'sms', 'whatsapp', 'webchat', 'phone', 'other')),
        name text not null,
        status text not null check (status in ('active', 'paused')),
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index inbox_channels_list on inbox_channels (workspace_id, environment, id desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table inbox_channels;
      delete from inbox_messages where environment = 'dev';
      delete from inbox_conversations where environment = 'dev';
      alter table inbox_messages drop constraint inbox_messages_environment_check;
      alter table inbox_messages add constraint inbox_messages_environment_check check (environment in ('live', 'test'));
      alter table inbox_conversations drop constraint inbox_conversations_environment_check;
      alter table inbox_conversations add constraint inbox_conversations_environment_check check (environment in ('live', 'test'));
      drop index inbox_conversations_closed;
      drop index inbox_conversations_opened;
      alter table inbox_conversations drop column first_response_at;
    `);
  }
}
