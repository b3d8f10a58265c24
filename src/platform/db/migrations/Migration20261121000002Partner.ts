import { Migration } from '@mikro-orm/migrations';

/** Workspaces, roles, API keys, idempotency records and the partner CRM records (convention A). */
export class Migration20261121000002Partner extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table workspaces (
        id uuid primary key,
        name text not null,
        plan text not null,
        owner_id uuid not null references accounts (id),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table workspace_members (
        workspace_id uuid not null references workspaces (id),
        account_id uuid not null references accounts (id),
        role text not null,
        added_at timestamptz not null default now(),
        primary key (workspace_id, account_id)
      );
      create index workspace_members_account on workspace_members (account_id, workspace_id);

      -- Custom roles; built-in roles (owner, admin, manager, staff) are not rows.
      create table workspace_roles (
        workspace_id uuid not null references workspaces (id),
        name text not null,
        created_at timestamptz not null default now(),
        primary key (workspace_id, name)
      );

      -- Explicit cells set by an admin; a missing row falls back to the role's (possibly dated) default.
      create table role_cells (
        workspace_id uuid not null references workspaces (id),
        role text not null,
        cell text not null check (cell in ('api_keys.view', 'api_keys.create', 'api_keys.delete')),
        granted boolean not null,
        updated_at timestamptz not null default now(),
        primary key (workspace_id, role, cell)
      );

      create table api_keys (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        name text not null,
        prefix text not null,
        -- sha256 of the full key: the secret itself is never stored.
        key_hash bytea not null unique,
        environment text not null check (environment in ('live', 'test', 'dev')),
        scopes text[] not null,
        status text not null check (status in ('active', 'revoked')),
        created_by uuid references accounts (id),
        created_at timestamptz not null default now(),
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz,
        revoked_by uuid references accounts (id)
      );
      create index api_keys_workspace on api_keys (workspace_id, id desc);

      -- One row per (workspace, Idempotency-Key), written in the same transaction as the write it guards.
      create table idempotency_keys (
        workspace_id uuid not null references workspaces (id),
        idempotency_key text not null,
        request_hash bytea not null,
        response_status integer not null,
        response_body jsonb,
        created_at timestamptz not null default now(),
        primary key (workspace_id, idempotency_key)
      );
      create index idempotency_keys_created on idempotency_keys (created_at);

      -- The ten partner resources share one table: the fields of each live in data, validated by the spec.
      create table crm_records (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        environment text not null,
        resource text not null,
        status text,
        data jsonb not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index crm_records_list on crm_records (workspace_id, environment, resource, id desc);
      create index crm_records_status on crm_records (workspace_id, environment, resource, status, id desc);
    `);
  }
}
