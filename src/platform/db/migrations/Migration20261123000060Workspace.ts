import { Migration } from '@mikro-orm/migrations';

/**
 * The workspace API (convention B): the convention-B plan of a workspace (with its contract limits for
 * enterprise), svc_ keys and their audit log. Workspaces, members and roles are the partner API's.
 */
export class Migration20261123000060Workspace extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- Convention B plans differ from the partner plans (workspaces.plan); rate limits follow svc_plan. The two
      -- contract columns are read for enterprise only (null: business limits until a contract sets them).
      alter table workspaces
        add column svc_plan text not null default 'free' check (svc_plan in ('free', 'pro', 'business', 'enterprise')),
        add column svc_rate_per_hour integer check (svc_rate_per_hour > 0),
        add column svc_rate_per_minute integer check (svc_rate_per_minute > 0);

      create table svc_keys (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        name text not null,
        description text,
        prefix text not null,
        last_four text not null,
        -- sha256 of the full key: the secret itself is never stored.
        key_hash bytea not null unique,
        environment text not null check (environment in ('live', 'test')),
        scopes text[] not null,
        -- normalised addresses and CIDR ranges; empty: any address
        ip_allow_list text[] not null default '{}',
        expires_at timestamptz,
        created_by uuid references accounts (id),
        created_at timestamptz not null,
        last_used_at timestamptz,
        -- set once: Revoked is final; Expired is computed from expires_at at read time
        revoked_at timestamptz,
        revoked_by uuid references accounts (id)
      );
      create index svc_keys_workspace on svc_keys (workspace_id, id desc);

      -- Written in batches by each node; entries older than 30 days are deleted by a maintenance job.
      create table svc_audit_log (
        id uuid primary key,
        workspace_id uuid not null,
        key_id uuid not null,
        time timestamptz not null,
        ip text not null,
        method text not null,
        endpoint text not null,
        status_code integer not null
      );
      create index svc_audit_log_workspace on svc_audit_log (workspace_id, time desc, id desc);
      create index svc_audit_log_key on svc_audit_log (key_id, time desc, id desc);
      create index svc_audit_log_time on svc_audit_log (time);
    `);
  }
}
