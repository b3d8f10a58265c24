import { Migration } from '@mikro-orm/migrations';

/**
 * Outbound webhooks of the workspace API, shared by the partner API's /webhooks surface: the endpoints (secret
 * encrypted at rest) and their deliveries, which are the record of truth of the delivery engine (BullMQ jobs only
 * drive them; a sweeper re-enqueues due rows whose job was lost).
 */
export class Migration2026112300130Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- The Owner's warning mail goes to this address; accounts come from external modules, so it may be unknown.
      alter table accounts add column if not exists email text;

      create table webhooks (
        id uuid primary key,
        workspace_id uuid not null references workspaces (id),
        -- the environment of the key that created it: only that environment's events reach it
        environment text not null check (environment in ('live', 'test', 'dev')),
        name text not null,
        url text not null,
        events text[] not null,
        description text,
        headers jsonb not null default '{}',
        -- AES-256-GCM: 12-byte nonce, 16-byte tag, ciphertext
        secret_ciphertext bytea not null,
        secret_last_four text not null,
        status text not null check (status in ('Active', 'Unverified', 'Paused', 'Disabled')),
        paused_reason text check (paused_reason in ('manual', 'failures')),
        -- failed attempts since the last 2xx, of any delivery
        consecutive_failures integer not null default 0,
        -- the Owner's warning mail after an automatic pause, until it is sent (leased by one node at a time)
        notice_pending boolean not null default false,
        notice_lease_until timestamptz,
        created_via text not null check (created_via in ('svc_key', 'api_key')),
        created_by_key uuid,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        paused_at timestamptz,
        disabled_at timestamptz
      );
      create index webhooks_workspace on webhooks (workspace_id, environment, id desc);
      create index webhooks_notice on webhooks (id) where notice_pending;

      create table webhook_deliveries (
        id uuid primary key,
        webhook_id uuid not null references webhooks (id) on delete cascade,
        workspace_id uuid not null,
        environment text not null,
        kind text not null check (kind in ('event', 'ping', 'test', 'replay')),
        event text not null,
        event_id text not null,
        -- the exact bytes every attempt sends and signs
        envelope text not null,
        status text not null check (status in ('pending', 'sending', 'succeeded', 'failed', 'held', 'cancelled')),
        attempt_count integer not null default 0,
        -- incremented by each resend, so the jobs of one round never meet those of another
        round integer not null default 0,
        next_attempt_at timestamptz,
        lease_until timestamptz,
        last_attempt_at timestamptz,
        response_status integer,
        latency_ms integer,
        response_excerpt text,
        error text,
        replay_of uuid,
        -- the svc.event outbox row it came from: one delivery per webhook and event, whatever happens
        outbox_id bigint,
        created_at timestamptz not null,
        completed_at timestamptz
      );
      create index webhook_deliveries_log on webhook_deliveries (webhook_id, id desc);
      create index webhook_deliveries_workspace on webhook_deliveries (workspace_id, environment, id desc);
      create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status in ('pending', 'sending');
      create index webhook_deliveries_held on webhook_deliveries (webhook_id) where status = 'held';
      create unique index webhook_deliveries_intake on webhook_deliveries (webhook_id, outbox_id) where outbox_id is not null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table webhook_deliveries, webhooks;');
  }
}
