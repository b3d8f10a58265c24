// The webhook operations both APIs serve (the workspace API's /api/v1/webhooks and the partner API's /webhooks and
// /webhook-deliveries): one set of webhooks per workspace and environment, whichever key created them. Errors are
// made by the calling API (its envelope and codes); attempts to put on the queue are returned to the caller, which
// enqueues them once its transaction has committed.
import { sql, type Updateable } from 'kysely';
import type { AppError } from '../../platform/http/app-error.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid, newId } from '../../platform/ids.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { coreDb, type CoreTables } from '../tables.js';
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
  type SealedSecret,
  type ScheduledAttempt,
  type DeliveryChecked,
  type WebhookChecked,
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

/** The partition's webhooks with the row's columns. */
const webhooksOf = (part: WebhookPartition) =>
  coreDb
    .selectFrom('webhooks')
    .select(webhookColumns)
    .$narrowType<WebhookChecked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** The partition's deliveries with the row's columns. */
const deliveriesOf = (part: WebhookPartition) =>
  coreDb
    .selectFrom('webhook_deliveries')
    .select(deliveryColumns)
    .$narrowType<DeliveryChecked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** The webhook's row with its sealed secret, which only the service opens. */
type SealedRow = WebhookRow & SealedSecret;

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
    await affected(
      db,
      coreDb.insertInto('webhook_deliveries').values({
        id: result.deliveryId,
        webhook_id: webhook.id,
        workspace_id: webhook.workspace_id,
        environment: webhook.environment,
        kind,
        event,
        event_id: result.eventId,
        envelope: result.envelope,
        status: o.ok ? 'succeeded' : 'failed',
        attempt_count: 1,
        last_attempt_at: result.at,
        response_status: o.status,
        latency_ms: o.latencyMs,
        response_excerpt: o.excerpt,
        error: o.ok ? null : (o.error ?? `HTTP ${o.status}`),
        created_at: result.at,
        completed_at: this.now(),
      }),
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
    const counted = await firstRow(
      db,
      coreDb
        .selectFrom('webhooks')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment),
    );
    if ((counted?.n ?? 0) >= maxWebhooksPerPartition) throw this.errors.limitReached(maxWebhooksPerPartition);
    await this.checkTarget(url, 'body.url');
    const id = newId();
    const ping = await this.ping(id, part, url.href, secret, headers, name, events);
    const now = this.now();
    const webhook = (await firstRow(
      db,
      coreDb
        .insertInto('webhooks')
        .values({
          id,
          workspace_id: part.workspaceId,
          environment: part.environment,
          name,
          url: url.href,
          events,
          description,
          headers: JSON.stringify(headers),
          secret_ciphertext: this.engine.box.seal(secret, id),
          secret_last_four: secret.slice(-4),
          status: ping.outcome.ok ? 'Active' : 'Unverified',
          verified: ping.outcome.ok,
          created_via: actor.via,
          created_by_key: actor.via === 'account' ? null : actor.keyId,
          created_by_account: actor.via === 'account' ? actor.accountId : null,
          created_at: now,
          updated_at: now,
        })
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    ))!;
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
    const before = query.cursor === undefined ? undefined : this.cursorId(query.cursor, 'webhooks');
    const found = await rows(
      db,
      webhooksOf(part)
        .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
        .$if(before !== undefined, (qb) => qb.where('id', '<', before!))
        .orderBy('id', 'desc')
        .limit(limit + 1),
    );
    return this.page(found, limit, 'webhooks');
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

  /** An update of one webhook of the partition. */
  private changeOf(part: WebhookPartition, id: string) {
    return coreDb
      .updateTable('webhooks')
      .where('id', '=', id)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment);
  }

  private async load(db: Queryable, part: WebhookPartition, id: string): Promise<SealedRow> {
    const row = await firstRow(db, webhooksOf(part).select('secret_ciphertext').$narrowType<SealedSecret>().where('id', '=', id));
    if (!row) throw this.errors.webhookNotFound();
    return row;
  }

  /** The partition of one webhook of the workspace, whatever its environment (people see every environment). */
  async partitionOf(db: Queryable, workspaceId: string, id: string): Promise<WebhookPartition> {
    const row = await firstRow(
      db,
      coreDb.selectFrom('webhooks').select('environment').where('id', '=', id).where('workspace_id', '=', workspaceId),
    );
    if (!row) throw this.errors.webhookNotFound();
    return { workspaceId, environment: row.environment };
  }

  async get(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const { secret_ciphertext: _sealed, ...row } = await this.load(db, part, id);
    return row;
  }

  /** Changes what the input names; a new URL is pinged again and, unless the webhook is Paused, sets Active or Unverified. */
  async update(db: Queryable, part: WebhookPartition, id: string, input: WebhookInput): Promise<WebhookRow> {
    const current = await this.load(db, part, id);
    if (current.status === 'Disabled') throw this.errors.disabled();
    const set: Updateable<CoreTables['webhooks']> = {};
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
    const row = await firstRow(
      db,
      coreDb
        .updateTable('webhooks')
        .set(set)
        .where('id', '=', id)
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment)
        .where('status', '<>', 'Disabled')
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
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
    const row = await firstRow(
      db,
      coreDb
        .deleteFrom('webhooks')
        .where('id', '=', id)
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment)
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
    if (!row) throw this.errors.webhookNotFound();
    await webhookOutbox(db, 'webhook.deleted', row);
  }

  async pause(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const now = this.now();
    const paused = await firstRow(
      db,
      this.changeOf(part, id)
        .set({ status: 'Paused', paused_reason: 'manual', paused_at: now, updated_at: now })
        .where('status', 'in', ['Active', 'Unverified'])
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
    if (paused) {
      await webhookOutbox(db, 'webhook.paused', paused, { reason: 'manual' });
      return paused;
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
    const row = await firstRow(
      db,
      this.changeOf(part, id)
        .set({
          status: sql<string>`case when verified then 'Active' else 'Unverified' end`,
          paused_reason: null,
          paused_at: null,
          consecutive_failures: 0,
          updated_at: now,
        })
        .where('status', '=', 'Paused')
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
    if (!row) {
      const current = await this.get(db, part, id);
      if (current.status === 'Disabled') throw this.errors.disabled();
      return { value: current, attempts: [] };
    }
    const released = await rows(
      db,
      coreDb
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: now })
        .where('webhook_id', '=', id)
        .where('status', '=', 'held')
        .returning(['id', 'round', 'attempt_count']),
    );
    await webhookOutbox(db, 'webhook.resumed', row, { released: released.length });
    return { value: row, attempts: released.map((d) => ({ id: d.id, round: d.round, attempt: d.attempt_count + 1, dueAt: now })) };
  }

  /** Disabled for good: its pending and held deliveries are cancelled (one in flight finishes). */
  async disable(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const now = this.now();
    const row = await firstRow(
      db,
      this.changeOf(part, id)
        .set({ status: 'Disabled', paused_reason: null, disabled_at: now, updated_at: now, notice_pending: false })
        .where('status', '<>', 'Disabled')
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
    if (!row) return this.get(db, part, id);
    const cancelled = await affected(
      db,
      coreDb
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', next_attempt_at: null, completed_at: now, error: 'cancelled: the webhook was disabled' })
        .where('webhook_id', '=', id)
        .where('status', 'in', ['pending', 'held']),
    );
    await webhookOutbox(db, 'webhook.disabled', row, { cancelled });
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
      // The status before the update (the CTE reads it under the row lock), to tell whether this verified it.
      const verified = await firstRow(
        db,
        coreDb
          .with('before', (qb) => qb.selectFrom('webhooks').select('status').where('id', '=', id).forUpdate())
          .updateTable('webhooks as w')
          .from('before')
          .set({
            status: sql<string>`case when w.status = 'Unverified' then 'Active' else w.status end`,
            verified: true,
            consecutive_failures: sql<number>`case when w.status = 'Unverified' then 0 else w.consecutive_failures end`,
            updated_at: sql<Date>`case when w.status = 'Unverified' then ${this.now()}::timestamptz else w.updated_at end`,
          })
          .where('w.id', '=', id)
          .where((eb) => eb.not(eb.ref('w.verified')))
          .returning([...webhookColumns.map((c) => `w.${c}` as const), 'before.status as previous_status'])
          .$narrowType<WebhookChecked & { previous_status: WebhookStatus }>(),
      );
      if (verified?.previous_status === 'Unverified') await webhookOutbox(db, 'webhook.verified', verified);
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
    const before = query.cursor === undefined ? undefined : this.cursorId(query.cursor, 'webhook_deliveries');
    const found = await rows(
      db,
      deliveriesOf(part)
        .$if(query.webhookId !== undefined, (qb) => qb.where('webhook_id', '=', query.webhookId!))
        .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
        .$if(before !== undefined, (qb) => qb.where('id', '<', before!))
        .orderBy('id', 'desc')
        .limit(limit + 1),
    );
    return this.page(found, limit, 'webhook_deliveries');
  }

  async delivery(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<DeliveryRow> {
    const row = await firstRow(
      db,
      deliveriesOf(part)
        .where('id', '=', deliveryId)
        .$if(webhookId !== undefined, (qb) => qb.where('webhook_id', '=', webhookId!)),
    );
    if (!row) throw this.errors.deliveryNotFound();
    return row;
  }

  /** Why a resend or replay found nothing to do: no such delivery, a Disabled webhook, or (resend) one in progress. */
  private async refusal(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId: string | undefined): Promise<AppError> {
    const delivery = await this.delivery(db, part, deliveryId, webhookId);
    const webhook = await firstRow(db, coreDb.selectFrom('webhooks').select('status').where('id', '=', delivery.webhook_id));
    if (webhook?.status === 'Disabled') return this.errors.disabled();
    return this.errors.inProgress();
  }

  /** The same delivery id again, in a new round of the retry schedule starting now. */
  async resend(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    const row = await firstRow(
      db,
      coreDb
        .updateTable('webhook_deliveries as d')
        .from('webhooks as w')
        .set((eb) => ({
          status: 'pending',
          attempt_count: 0,
          round: eb('d.round', '+', 1),
          next_attempt_at: now,
          lease_until: null,
          completed_at: null,
        }))
        .where('d.id', '=', deliveryId)
        .where('d.workspace_id', '=', part.workspaceId)
        .where('d.environment', '=', part.environment)
        .$if(webhookId !== undefined, (qb) => qb.where('d.webhook_id', '=', webhookId!))
        .whereRef('w.id', '=', 'd.webhook_id')
        .where('w.status', '<>', 'Disabled')
        .where('d.status', 'in', ['succeeded', 'failed', 'cancelled'])
        .returning(deliveryColumns.map((c) => `d.${c}` as const))
        .$narrowType<DeliveryChecked>(),
    );
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: row.round, attempt: 1, dueAt: now }] };
  }

  /**
   * The delivery's envelope again as a new delivery (kind replay) under a new evt_ id, which receivers that
   * de-duplicate on the id therefore process; the envelope's replay_of names the original event.
   */
  async replay(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    // The delivery, of a webhook that is not Disabled, as `d`.
    const replayable = () =>
      coreDb
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .where('d.id', '=', deliveryId)
        .where('d.workspace_id', '=', part.workspaceId)
        .where('d.environment', '=', part.environment)
        .$if(webhookId !== undefined, (qb) => qb.where('d.webhook_id', '=', webhookId!))
        .where('w.status', '<>', 'Disabled');
    const source = await firstRow(db, replayable().select('d.envelope'));
    if (!source) throw await this.refusal(db, part, deliveryId, webhookId);
    const eventId = newEventId();
    const row = await firstRow(
      db,
      coreDb
        .insertInto('webhook_deliveries')
        .columns([
          'id',
          'webhook_id',
          'workspace_id',
          'environment',
          'kind',
          'event',
          'event_id',
          'envelope',
          'status',
          'next_attempt_at',
          'replay_of',
          'created_at',
        ])
        .expression(
          replayable().select([
            sql<string>`${newId()}::uuid`.as('id'),
            'd.webhook_id',
            'd.workspace_id',
            'd.environment',
            sql.lit('replay').as('kind'),
            'd.event',
            sql<string>`${eventId}::text`.as('event_id'),
            sql<string>`${replayEnvelopeText(source.envelope, eventId)}::text`.as('envelope'),
            sql.lit('pending').as('status'),
            sql<Date>`${now}::timestamptz`.as('next_attempt_at'),
            'd.id',
            sql<Date>`${now}::timestamptz`.as('created_at'),
          ]),
        )
        .returning(deliveryColumns)
        .$narrowType<DeliveryChecked>(),
    );
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: 0, attempt: 1, dueAt: now }] };
  }
}
