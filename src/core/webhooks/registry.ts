// A partition's webhooks: created (pinged first, at most maxWebhooksPerPartition), listed, read, changed (a new URL
// is pinged again) and deleted; each change writes its catalogue event to the outbox.
import type { Updateable } from 'kysely';
import { newId } from '../../platform/ids.js';
import type { Queryable } from '../../platform/db/queryable.js';
import type { CoreTables } from '../tables.js';
import type { ImmediateResult, WebhookEngine } from './engine.js';
import { pingEvent } from './events.js';
import { WebhookInputChecks, type WebhookErrorFactory, type WebhookInput } from './input-checks.js';
import { cursorId, pageOf, partitionList, type Page } from './pages.js';
import { getWebhook, loadWebhook } from './partition.js';
import { webhookOutbox, type WebhookPartition, type WebhookRow, type WebhookStatus } from './rows.js';
import { newWebhookSecret } from './secret-box.js';
import { logImmediate, pingNow, summary, type SendSummary } from './send-now.js';
import { countWebhooks, deleteWebhook, insertWebhook, updateWebhook, webhookEnvironment, webhooksPage } from './webhook-queries.js';

export const maxWebhooksPerPartition = 50;

/** Who creates a webhook: a svc_ key of the workspace API, an API key of the partner API, or a person (Owner, Admin). */
export type WebhookActor = { via: 'svc_key' | 'api_key'; keyId: string } | { via: 'account'; accountId: string };

export class WebhookRegistry {
  private readonly checks: WebhookInputChecks;

  constructor(
    private readonly engine: WebhookEngine,
    private readonly errors: WebhookErrorFactory,
  ) {
    this.checks = new WebhookInputChecks(engine, errors);
  }

  private now(): Date {
    return this.engine.clock.now();
  }

  async create(
    db: Queryable,
    part: WebhookPartition,
    actor: WebhookActor,
    input: Required<Pick<WebhookInput, 'name' | 'url' | 'events'>> & WebhookInput,
  ): Promise<{ webhook: WebhookRow; secret: string; ping: SendSummary }> {
    const name = this.checks.checkName(input.name, 'body.name');
    const url = this.checks.checkUrl(input.url, 'body.url');
    const events = this.checks.checkEvents(input.events, 'body.events');
    const headers = this.checks.checkHeaders(input.headers ?? {}, 'body.headers');
    const description = this.checks.checkDescription(input.description ?? null, 'body.description');
    const secret = input.secret === undefined ? newWebhookSecret() : this.checks.checkSecret(input.secret, 'body.secret');
    if ((await countWebhooks(db, part)) >= maxWebhooksPerPartition) throw this.errors.limitReached(maxWebhooksPerPartition);
    await this.checks.checkTarget(url, 'body.url');
    const id = newId();
    const ping = await pingNow(this.engine, id, part, url.href, secret, headers, name, events);
    const now = this.now();
    const webhook = (await insertWebhook(db, {
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
    }))!;
    await logImmediate(this.engine, db, webhook, 'ping', pingEvent, ping);
    await webhookOutbox(db, 'webhook.created', webhook);
    return { webhook, secret, ping: summary(ping) };
  }

  async list(
    db: Queryable,
    part: WebhookPartition,
    query: { limit?: number; cursor?: string; status?: WebhookStatus },
  ): Promise<Page<WebhookRow>> {
    const limit = query.limit ?? 50;
    const list = partitionList('webhooks', part, query);
    const before = query.cursor === undefined ? undefined : cursorId(query.cursor, list, this.errors);
    const found = await webhooksPage(db, part, { status: query.status, before, limit });
    return pageOf(found, limit, list);
  }

  /** The partition of one webhook of the workspace, whatever its environment (people see every environment). */
  async partitionOf(db: Queryable, workspaceId: string, id: string): Promise<WebhookPartition> {
    const row = await webhookEnvironment(db, workspaceId, id);
    if (!row) throw this.errors.webhookNotFound();
    return { workspaceId, environment: row.environment };
  }

  async get(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    return getWebhook(db, part, id, this.errors);
  }

  /** Changes what the input names; a new URL is pinged again and, unless the webhook is Paused, sets Active or Unverified. */
  async update(db: Queryable, part: WebhookPartition, id: string, input: WebhookInput): Promise<WebhookRow> {
    const current = await loadWebhook(db, part, id, this.errors);
    if (current.status === 'Disabled') throw this.errors.disabled();
    const set: Updateable<CoreTables['webhooks']> = {};
    if (input.name !== undefined) set.name = this.checks.checkName(input.name, 'body.name');
    if (input.events !== undefined) set.events = this.checks.checkEvents(input.events, 'body.events');
    if (input.headers !== undefined) set.headers = JSON.stringify(this.checks.checkHeaders(input.headers, 'body.headers'));
    if (input.description !== undefined) set.description = this.checks.checkDescription(input.description, 'body.description');
    let secret: string | undefined;
    if (input.secret !== undefined) {
      secret = this.checks.checkSecret(input.secret, 'body.secret');
      set.secret_ciphertext = this.engine.box.seal(secret, id);
      set.secret_last_four = secret.slice(-4);
    }
    let ping: ImmediateResult | undefined;
    if (input.url !== undefined) {
      const url = this.checks.checkUrl(input.url, 'body.url');
      if (url.href !== current.url) {
        await this.checks.checkTarget(url, 'body.url');
        set.url = url.href;
        const headers = input.headers ?? current.headers;
        ping = await pingNow(
          this.engine,
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
    if (changed.length === 0) return getWebhook(db, part, id, this.errors);
    set.updated_at = this.now();
    const row = await updateWebhook(db, part, id, set);
    if (!row) {
      await loadWebhook(db, part, id, this.errors);
      throw this.errors.disabled();
    }
    if (ping) await logImmediate(this.engine, db, row, 'ping', pingEvent, ping);
    await webhookOutbox(db, 'webhook.updated', row, {
      changes: changed.filter((n) => n !== 'secret_ciphertext').map((n) => (n === 'secret_last_four' ? 'secret' : n)),
    });
    return row;
  }

  async delete(db: Queryable, part: WebhookPartition, id: string): Promise<void> {
    const row = await deleteWebhook(db, part, id);
    if (!row) throw this.errors.webhookNotFound();
    await webhookOutbox(db, 'webhook.deleted', row);
  }
}
