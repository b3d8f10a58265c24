// The webhook operations both APIs serve (the workspace API's /api/v1/webhooks and the partner API's /webhooks and
// /webhook-deliveries): one set of webhooks per workspace and environment, whichever key created them. Errors are
// made by the calling API (its envelope and codes); attempts to put on the queue are returned to the caller, which
// enqueues them once its transaction has committed.
import type { AppError } from '../../platform/http/app-error.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid, newId } from '../../platform/ids.js';
import type { Queryable } from '../../platform/db/queryable.js';
import type { ImmediateResult, WebhookEngine } from './engine.js';
import { isWebhookEvent, newEventId, pingEvent, replayEnvelopeText, sampleData } from './events.js';
import { headersProblem } from './headers.js';
import {
  deliveryColumns,
  webhookColumns,
  webhookOutbox,
  type DeliveryKind,
  type DeliveryRow,
  type DeliveryStatus,
  type ScheduledAttempt,
  type WebhookPartition,
  type WebhookRow,
  type WebhookStatus,
} from './rows.js';
import { newWebhookSecret } from './secret-box.js';
import { parseWebhookUrl, resolveTarget, TargetRefused } from './targets.js';

export const maxWebhooksPerPartition = 50;

/** The errors of the calling API, in its envelope. */
export interface WebhookErrorFactory {
  invalid(field: string, message: string): AppError;
  webhookNotFound(): AppError;
  deliveryNotFound(): AppError;
  /** 409: the webhook is Disabled. */
  disabled(): AppError;
  /** 409: the delivery is pending, sending or held. */
  inProgress(): AppError;
  /** 409: the workspace environment has as many webhooks as allowed. */
  limitReached(limit: number): AppError;
}

/** Who creates a webhook: a svc_ key of the workspace API, an API key of the partner API, or a person (Owner, Admin). */
export type WebhookActor = { via: 'svc_key' | 'api_key'; keyId: string } | { via: 'account'; accountId: string };

export interface WebhookInput {
  name?: string;
  url?: string;
  events?: string[];
  secret?: string;
  description?: string | null;
  headers?: Record<string, string>;
}

export interface SendSummary {
  deliveryId: string;
  /** The evt_ id sent as the envelope's id and X-SVC-Delivery. */
  eventId: string;
  ok: boolean;
  status: number | null;
  body: string;
  latencyMs: number;
  error: string | null;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Scheduled<T> {
  value: T;
  attempts: ScheduledAttempt[];
}

interface SealedRow extends WebhookRow {
  secret_ciphertext: Buffer;
}

function summary(result: ImmediateResult): SendSummary {
  const o = result.outcome;
  return {
    deliveryId: result.deliveryId,
    eventId: result.eventId,
    ok: o.ok,
    status: o.status,
    body: o.excerpt,
    latencyMs: o.latencyMs,
    error: o.error,
  };
}

export class WebhookService {
  constructor(
    private readonly engine: WebhookEngine,
    private readonly errors: WebhookErrorFactory,
  ) {}

  private now(): Date {
    return this.engine.clock.now();
  }

  private checkUrl(raw: string, field: string): URL {
    const url = parseWebhookUrl(raw);
    if (typeof url === 'string') throw this.errors.invalid(field, url);
    return url;
  }

  /**
   * Refuses a loopback or private target now; a name that does not resolve yet (or not within the receiver time-out)
   * is left to the ping to judge.
   */
  private async checkTarget(url: URL, field: string): Promise<void> {
    try {
      await resolveTarget(url, this.engine.settings.allowPrivateTargets, this.engine.settings.timeoutMs);
    } catch (err) {
      if (err instanceof TargetRefused) throw this.errors.invalid(field, err.message);
    }
  }

  private checkEvents(events: string[], field: string): string[] {
    const unknown = events.find((e) => !isWebhookEvent(e));
    if (unknown !== undefined)
      throw this.errors.invalid(field, `contains ${JSON.stringify(unknown.slice(0, 64))}, which is not an event of the catalogue`);
    const unique = [...new Set(events)];
    if (unique.length === 0) throw this.errors.invalid(field, 'must name at least one event');
    return unique;
  }

  private checkHeaders(headers: Record<string, string>, field: string): Record<string, string> {
    const problem = headersProblem(headers);
    if (problem) throw this.errors.invalid(field, problem);
    return headers;
  }

  private checkName(name: string, field: string): string {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > 100) throw this.errors.invalid(field, 'must be 1 to 100 characters, not all blank');
    return trimmed;
  }

  private checkDescription(description: string | null, field: string): string | null {
    if (description !== null && description.length > 500) throw this.errors.invalid(field, 'must be at most 500 characters');
    return description;
  }

  private checkSecret(secret: string, field: string): string {
    if (!/^[!-~]{16,256}$/.test(secret)) throw this.errors.invalid(field, 'must be 16 to 256 printable ASCII characters without spaces');
    return secret;
  }

  /** Logs a ping or test delivery that was sent at once. */
  private async logImmediate(
    db: Queryable,
    webhook: Pick<WebhookRow, 'id' | 'workspace_id' | 'environment'>,
    kind: DeliveryKind,
    event: string,
    result: ImmediateResult,
  ): Promise<void> {
    const o = result.outcome;
    await db.query(
      `insert into webhook_deliveries (id, webhook_id, workspace_id, environment, kind, event, event_id, envelope, status, attempt_count,
                                       last_attempt_at, response_status, latency_ms, response_excerpt, error, created_at, completed_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $11, $12, $13, $14, $10, $15)`,
      [
        result.deliveryId,
        webhook.id,
        webhook.workspace_id,
        webhook.environment,
        kind,
        event,
        result.eventId,
        result.envelope,
        o.ok ? 'succeeded' : 'failed',
        result.at,
        o.status,
        o.latencyMs,
        o.excerpt,
        o.ok ? null : (o.error ?? `HTTP ${o.status}`),
        this.now(),
      ],
    );
  }

  private ping(
    id: string,
    part: WebhookPartition,
    url: string,
    secret: string,
    headers: Record<string, string>,
    name: string,
    events: string[],
  ): Promise<ImmediateResult> {
    return this.engine.sendNow({
      webhookId: id,
      workspaceId: part.workspaceId,
      url,
      secret,
      headers,
      event: pingEvent,
      data: { webhook_id: id, name, events },
    });
  }

  async create(
    db: Queryable,
    part: WebhookPartition,
    actor: WebhookActor,
    input: Required<Pick<WebhookInput, 'name' | 'url' | 'events'>> & WebhookInput,
  ): Promise<{ webhook: WebhookRow; secret: string; ping: SendSummary }> {
    const name = this.checkName(input.name, 'body.name');
    const url = this.checkUrl(input.url, 'body.url');
    const events = this.checkEvents(input.events, 'body.events');
    const headers = this.checkHeaders(input.headers ?? {}, 'body.headers');
    const description = this.checkDescription(input.description ?? null, 'body.description');
    const secret = input.secret === undefined ? newWebhookSecret() : this.checkSecret(input.secret, 'body.secret');
    const { rows: counted } = await db.query<{ n: number }>(
      'select count(*)::int as n from webhooks where workspace_id = $1 and environment = $2',
      [part.workspaceId, part.environment],
    );
    if ((counted[0]?.n ?? 0) >= maxWebhooksPerPartition) throw this.errors.limitReached(maxWebhooksPerPartition);
    await this.checkTarget(url, 'body.url');
    const id = newId();
    const ping = await this.ping(id, part, url.href, secret, headers, name, events);
    const now = this.now();
    const { rows } = await db.query<WebhookRow>(
      `insert into webhooks (id, workspace_id, environment, name, url, events, description, headers, secret_ciphertext, secret_last_four, status,
                             verified, created_via, created_by_key, created_by_account, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $15, $12, $13, $16, $14, $14)
       returning ${webhookColumns}`,
      [
        id,
        part.workspaceId,
        part.environment,
        name,
        url.href,
        events,
        description,
        JSON.stringify(headers),
        this.engine.box.seal(secret, id),
        secret.slice(-4),
        ping.outcome.ok ? 'Active' : 'Unverified',
        actor.via,
        actor.via === 'account' ? null : actor.keyId,
        now,
        ping.outcome.ok,
        actor.via === 'account' ? actor.accountId : null,
      ],
    );
    const webhook = rows[0]!;
    await this.logImmediate(db, webhook, 'ping', pingEvent, ping);
    await webhookOutbox(db, 'webhook.created', webhook);
    return { webhook, secret, ping: summary(ping) };
  }

  async list(
    db: Queryable,
    part: WebhookPartition,
    query: { limit?: number; cursor?: string; status?: WebhookStatus },
  ): Promise<Page<WebhookRow>> {
    const limit = query.limit ?? 50;
    const params: unknown[] = [part.workspaceId, part.environment];
    let sql = `select ${webhookColumns} from webhooks where workspace_id = $1 and environment = $2`;
    if (query.status !== undefined) {
      params.push(query.status);
      sql += ` and status = $${params.length}`;
    }
    if (query.cursor !== undefined) {
      params.push(this.cursorId(query.cursor, 'webhooks'));
      sql += ` and id < $${params.length}`;
    }
    params.push(limit + 1);
    sql += ` order by id desc limit $${params.length}`;
    const { rows } = await db.query<WebhookRow>(sql, params);
    return this.page(rows, limit, 'webhooks');
  }

  private cursorId(raw: string, kind: string): string {
    const c = decodeCursor(raw);
    if (!c || c.k !== kind || typeof c.i !== 'string' || !isUuid(c.i))
      throw this.errors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
    return c.i;
  }

  private page<T extends { id: string }>(rows: T[], limit: number, kind: string): Page<T> {
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? encodeCursor({ k: kind, i: last.id }) : null };
  }

  private async load(db: Queryable, part: WebhookPartition, id: string): Promise<SealedRow> {
    const { rows } = await db.query<SealedRow>(
      `select ${webhookColumns}, secret_ciphertext from webhooks where id = $1 and workspace_id = $2 and environment = $3`,
      [id, part.workspaceId, part.environment],
    );
    if (!rows[0]) throw this.errors.webhookNotFound();
    return rows[0];
  }

  /** The partition of one webhook of the workspace, whatever its environment (people see every environment). */
  async partitionOf(db: Queryable, workspaceId: string, id: string): Promise<WebhookPartition> {
    const { rows } = await db.query<{ environment: string }>('select environment from webhooks where id = $1 and workspace_id = $2', [
      id,
      workspaceId,
    ]);
    if (!rows[0]) throw this.errors.webhookNotFound();
    return { workspaceId, environment: rows[0].environment };
  }

  async get(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const { secret_ciphertext: _sealed, ...row } = await this.load(db, part, id);
    return row;
  }

  /** Changes what the input names; a new URL is pinged again and, unless the webhook is Paused, sets Active or Unverified. */
  async update(db: Queryable, part: WebhookPartition, id: string, input: WebhookInput): Promise<WebhookRow> {
    const current = await this.load(db, part, id);
    if (current.status === 'Disabled') throw this.errors.disabled();
    const set: Record<string, unknown> = {};
    if (input.name !== undefined) set.name = this.checkName(input.name, 'body.name');
    if (input.events !== undefined) set.events = this.checkEvents(input.events, 'body.events');
    if (input.headers !== undefined) set.headers = JSON.stringify(this.checkHeaders(input.headers, 'body.headers'));
    if (input.description !== undefined) set.description = this.checkDescription(input.description, 'body.description');
    let secret: string | undefined;
    if (input.secret !== undefined) {
      secret = this.checkSecret(input.secret, 'body.secret');
      set.secret_ciphertext = this.engine.box.seal(secret, id);
      set.secret_last_four = secret.slice(-4);
    }
    let ping: ImmediateResult | undefined;
    if (input.url !== undefined) {
      const url = this.checkUrl(input.url, 'body.url');
      if (url.href !== current.url) {
        await this.checkTarget(url, 'body.url');
        set.url = url.href;
        const headers = input.headers ?? current.headers;
        ping = await this.ping(
          id,
          part,
          url.href,
          secret ?? this.engine.box.open(current.secret_ciphertext, id),
          headers,
          String(set.name ?? current.name),
          (set.events as string[] | undefined) ?? current.events,
        );
        // A new URL is verified by its own ping, whatever the old one did.
        set.verified = ping.outcome.ok;
        if (current.status === 'Active' || current.status === 'Unverified') set.status = ping.outcome.ok ? 'Active' : 'Unverified';
      }
    }
    const changed = Object.keys(set).filter((n) => n !== 'verified');
    if (changed.length === 0) return this.get(db, part, id);
    set.updated_at = this.now();
    const names = Object.keys(set);
    const { rows } = await db.query<WebhookRow>(
      `update webhooks set ${names.map((n, i) => `${n} = $${i + 4}`).join(', ')}
        where id = $1 and workspace_id = $2 and environment = $3 and status <> 'Disabled'
        returning ${webhookColumns}`,
      [id, part.workspaceId, part.environment, ...names.map((n) => set[n])],
    );
    const row = rows[0];
    if (!row) {
      await this.load(db, part, id);
      throw this.errors.disabled();
    }
    if (ping) await this.logImmediate(db, row, 'ping', pingEvent, ping);
    await webhookOutbox(db, 'webhook.updated', row, {
      changes: changed.filter((n) => n !== 'secret_ciphertext').map((n) => (n === 'secret_last_four' ? 'secret' : n)),
    });
    return row;
  }

  async delete(db: Queryable, part: WebhookPartition, id: string): Promise<void> {
    const { rows } = await db.query<WebhookRow>(
      `delete from webhooks where id = $1 and workspace_id = $2 and environment = $3 returning ${webhookColumns}`,
      [id, part.workspaceId, part.environment],
    );
    if (!rows[0]) throw this.errors.webhookNotFound();
    await webhookOutbox(db, 'webhook.deleted', rows[0]);
  }

  async pause(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const now = this.now();
    const { rows } = await db.query<WebhookRow>(
      `update webhooks set status = 'Paused', paused_reason = 'manual', paused_at = $4, updated_at = $4
        where id = $1 and workspace_id = $2 and environment = $3 and status in ('Active', 'Unverified')
        returning ${webhookColumns}`,
      [id, part.workspaceId, part.environment, now],
    );
    if (rows[0]) {
      await webhookOutbox(db, 'webhook.paused', rows[0], { reason: 'manual' });
      return rows[0];
    }
    const current = await this.get(db, part, id);
    if (current.status === 'Disabled') throw this.errors.disabled();
    return current;
  }

  /**
   * Active again (Unverified when its URL has never answered 2xx: a pause does not verify it), failures reset, its
   * held deliveries due now.
   */
  async resume(db: Queryable, part: WebhookPartition, id: string): Promise<Scheduled<WebhookRow>> {
    const now = this.now();
    const { rows } = await db.query<WebhookRow>(
      `update webhooks set status = case when verified then 'Active' else 'Unverified' end, paused_reason = null, paused_at = null, consecutive_failures = 0, updated_at = $4
        where id = $1 and workspace_id = $2 and environment = $3 and status = 'Paused'
        returning ${webhookColumns}`,
      [id, part.workspaceId, part.environment, now],
    );
    const row = rows[0];
    if (!row) {
      const current = await this.get(db, part, id);
      if (current.status === 'Disabled') throw this.errors.disabled();
      return { value: current, attempts: [] };
    }
    const { rows: released } = await db.query<{ id: string; round: number; attempt_count: number }>(
      `update webhook_deliveries set status = 'pending', next_attempt_at = $2
        where webhook_id = $1 and status = 'held'
        returning id, round, attempt_count`,
      [id, now],
    );
    await webhookOutbox(db, 'webhook.resumed', row, { released: released.length });
    return { value: row, attempts: released.map((d) => ({ id: d.id, round: d.round, attempt: d.attempt_count + 1, dueAt: now })) };
  }

  /** Disabled for good: its pending and held deliveries are cancelled (one in flight finishes). */
  async disable(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const now = this.now();
    const { rows } = await db.query<WebhookRow>(
      `update webhooks set status = 'Disabled', paused_reason = null, disabled_at = $4, updated_at = $4, notice_pending = false
        where id = $1 and workspace_id = $2 and environment = $3 and status <> 'Disabled'
        returning ${webhookColumns}`,
      [id, part.workspaceId, part.environment, now],
    );
    const row = rows[0];
    if (!row) return this.get(db, part, id);
    const cancelled = await db.query(
      `update webhook_deliveries set status = 'cancelled', next_attempt_at = null, completed_at = $2, error = 'cancelled: the webhook was disabled'
        where webhook_id = $1 and status in ('pending', 'held')`,
      [id, now],
    );
    await webhookOutbox(db, 'webhook.disabled', row, { cancelled: cancelled.rowCount ?? 0 });
    return row;
  }

  /** Sends a signed delivery of `event` now (logged as a test); a 2xx makes an Unverified webhook Active. */
  async test(
    db: Queryable,
    part: WebhookPartition,
    id: string,
    input: { event: string; payload?: Record<string, unknown> },
  ): Promise<SendSummary> {
    if (!isWebhookEvent(input.event)) throw this.errors.invalid('body.event', 'is not an event of the catalogue');
    const webhook = await this.load(db, part, id);
    if (webhook.status === 'Disabled') throw this.errors.disabled();
    const result = await this.engine.sendNow({
      webhookId: id,
      workspaceId: part.workspaceId,
      url: webhook.url,
      secret: this.engine.box.open(webhook.secret_ciphertext, id),
      headers: webhook.headers,
      event: input.event,
      data: input.payload ?? sampleData(input.event, this.now()),
    });
    await this.logImmediate(db, webhook, 'test', input.event, result);
    if (result.outcome.ok) {
      const { rows } = await db.query<WebhookRow & { previous_status: WebhookStatus }>(
        `with before as (select status from webhooks where id = $1 for update)
         update webhooks w set status = case when w.status = 'Unverified' then 'Active' else w.status end, verified = true,
                consecutive_failures = case when w.status = 'Unverified' then 0 else w.consecutive_failures end,
                updated_at = case when w.status = 'Unverified' then $2 else w.updated_at end
           from before where w.id = $1 and not w.verified
         returning ${webhookColumns
           .split(', ')
           .map((c) => `w.${c}`)
           .join(', ')}, before.status as previous_status`,
        [id, this.now()],
      );
      if (rows[0]?.previous_status === 'Unverified') await webhookOutbox(db, 'webhook.verified', rows[0]);
    }
    return summary(result);
  }

  /** Deliveries of the partition, newest first; of one webhook when `webhookId` is given (404 when it is not one). */
  async deliveries(
    db: Queryable,
    part: WebhookPartition,
    query: { webhookId?: string; limit?: number; cursor?: string; status?: DeliveryStatus },
  ): Promise<Page<DeliveryRow>> {
    const limit = query.limit ?? 50;
    const params: unknown[] = [part.workspaceId, part.environment];
    let sql = `select ${deliveryColumns} from webhook_deliveries where workspace_id = $1 and environment = $2`;
    if (query.webhookId !== undefined) {
      params.push(query.webhookId);
      sql += ` and webhook_id = $${params.length}`;
    }
    if (query.status !== undefined) {
      params.push(query.status);
      sql += ` and status = $${params.length}`;
    }
    if (query.cursor !== undefined) {
      params.push(this.cursorId(query.cursor, 'webhook_deliveries'));
      sql += ` and id < $${params.length}`;
    }
    params.push(limit + 1);
    sql += ` order by id desc limit $${params.length}`;
    const { rows } = await db.query<DeliveryRow>(sql, params);
    return this.page(rows, limit, 'webhook_deliveries');
  }

  async delivery(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<DeliveryRow> {
    const { rows } = await db.query<DeliveryRow>(
      `select ${deliveryColumns} from webhook_deliveries where id = $1 and workspace_id = $2 and environment = $3 and ($4::uuid is null or webhook_id = $4)`,
      [deliveryId, part.workspaceId, part.environment, webhookId ?? null],
    );
    if (!rows[0]) throw this.errors.deliveryNotFound();
    return rows[0];
  }

  /** Why a resend or replay found nothing to do: no such delivery, a Disabled webhook, or (resend) one in progress. */
  private async refusal(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId: string | undefined): Promise<AppError> {
    const delivery = await this.delivery(db, part, deliveryId, webhookId);
    const { rows } = await db.query<{ status: string }>('select status from webhooks where id = $1', [delivery.webhook_id]);
    if (rows[0]?.status === 'Disabled') return this.errors.disabled();
    return this.errors.inProgress();
  }

  /** The same delivery id again, in a new round of the retry schedule starting now. */
  async resend(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    const { rows } = await db.query<DeliveryRow>(
      `update webhook_deliveries d
          set status = 'pending', attempt_count = 0, round = d.round + 1, next_attempt_at = $5, lease_until = null, completed_at = null
         from webhooks w
        where d.id = $1 and d.workspace_id = $2 and d.environment = $3 and ($4::uuid is null or d.webhook_id = $4)
          and w.id = d.webhook_id and w.status <> 'Disabled' and d.status in ('succeeded', 'failed', 'cancelled')
        returning ${deliveryColumns
          .split(', ')
          .map((c) => `d.${c}`)
          .join(', ')}`,
      [deliveryId, part.workspaceId, part.environment, webhookId ?? null, now],
    );
    const row = rows[0];
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: row.round, attempt: 1, dueAt: now }] };
  }

  /**
   * The delivery's envelope again as a new delivery (kind replay) under a new evt_ id, which receivers that
   * de-duplicate on the id therefore process; the envelope's replay_of names the original event.
   */
  async replay(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    const { rows: sources } = await db.query<{ envelope: string }>(
      `select d.envelope from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where d.id = $1 and d.workspace_id = $2 and d.environment = $3 and ($4::uuid is null or d.webhook_id = $4) and w.status <> 'Disabled'`,
      [deliveryId, part.workspaceId, part.environment, webhookId ?? null],
    );
    const source = sources[0];
    if (!source) throw await this.refusal(db, part, deliveryId, webhookId);
    const eventId = newEventId();
    const { rows } = await db.query<DeliveryRow>(
      `insert into webhook_deliveries (id, webhook_id, workspace_id, environment, kind, event, event_id, envelope, status, next_attempt_at, replay_of, created_at)
       select $5, d.webhook_id, d.workspace_id, d.environment, 'replay', d.event, $7, $8, 'pending', $6, d.id, $6
         from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where d.id = $1 and d.workspace_id = $2 and d.environment = $3 and ($4::uuid is null or d.webhook_id = $4) and w.status <> 'Disabled'
       returning ${deliveryColumns}`,
      [
        deliveryId,
        part.workspaceId,
        part.environment,
        webhookId ?? null,
        newId(),
        now,
        eventId,
        replayEnvelopeText(source.envelope, eventId),
      ],
    );
    const row = rows[0];
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: 0, attempt: 1, dueAt: now }] };
  }
}
