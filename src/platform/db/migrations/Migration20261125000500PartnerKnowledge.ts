import { Migration } from '@mikro-orm/migrations';

/**
 * The partner inbox's knowledge base, AI agents and stored files, each partitioned by workspace and key environment
 * like the CRM records. Articles are searched with a GIN expression index over the words of title and body in the
 * language-neutral `simple` configuration (as messages_search), so writes keep no extra column.
 */
export class Migration20261125000500PartnerKnowledge extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table kb_articles (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test', 'dev')),
        title text not null,
        body text not null,
        tags text[] not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index kb_articles_list on kb_articles (workspace_id, environment, id desc);
      create index kb_articles_search on kb_articles using gin (to_tsvector('simple'::regconfig, title || ' ' || body));

      create table ai_agents (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test', 'dev')),
        name text not null,
        instructions text not null default '',
        tone text not null,
        kb_tags text[] not null default '{}',
        kb_article_ids uuid[] not null default '{}',
        max_suggestions integer not null,
        enabled boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index ai_agents_list on ai_agents (workspace_id, environment, id desc);

      create table storage_files (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null check (environment in ('live', 'test', 'dev')),
        file_name text not null,
        content_type text not null,
        size bigint not null,
        sha256 text not null,
        uploaded_by uuid not null references api_keys (id),
        created_at timestamptz not null default now()
      );
      create index storage_files_list on storage_files (workspace_id, environment, id desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table storage_files; drop table ai_agents; drop table kb_articles;');
  }
}
