// Bot updates are made from the outbox, inside the relay's drain transaction: a message acknowledged to its sender
// has its outbox row committed, and the updates it causes commit with that row's publication, or neither does.
// So every way a message is created (send, thread reply, forward, scheduled sends, ...) reaches bots, and none is
// lost. Update ids are handed out under each bot's row lock, taken in id order (no deadlock between relays on
// several nodes), so a bot never sees update N before every update below N has committed. After the commit the
// bots' long polls are woken on every node and webhook deliveries are requested.
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { affected, hotRows, rows } from '../../../platform/db/typed.js';
import { newId } from '../../../platform/ids.js';
import type { Logger } from '../../../platform/logger.js';
import type { OutboxConsumer } from '../../../platform/outbox.js';
import { inConsumerSpan } from '../../../platform/tracing/consumer.js';
import { chatDb } from '../../base/tables.js';
import type { WebhookDeliveries } from '../delivery/queue.js';
import { loadBotMessages, telegramMessage, telegramUser } from '../telegram.js';
import { receives } from './recipients.js';
import type { UpdateWaiters } from './waiters.js';

/**
 * Events carry their place in the drained batch, so a bot's updates follow the outbox order. A new message becomes
 * a message update, an edit an edited_message update (the message as it now is, with its edit_date), to the bots
 * that received or would receive the message.
 */
interface MessageEvent {
  ord: number;
  roomId: string;
  messageId: string;
  kind: 'message' | 'edited_message';
}

interface CallbackPressed {
  ord: number;
  callbackQueryId: string;
}

interface NewUpdate {
  ord: number;
  botId: string;
  kind: 'message' | 'edited_message' | 'callback_query';
  body: Record<string, unknown>;
}

const allows = (allowed: string[] | null, kind: string) => allowed === null || allowed.length === 0 || allowed.includes(kind);

async function messageUpdates(client: SqlClient, events: MessageEvent[], log: Logger): Promise<NewUpdate[]> {
  if (events.length === 0) return [];
  // The bots that are members of the rooms at this moment; the planner probes room_members per bot, so rooms
  // without bots cost one index lookup each.
  const [roomIds, messageIds, ords] = [events.map((e) => e.roomId), events.map((e) => e.messageId), events.map((e) => e.ord)];
  // A named prepared statement: its text is the same for every batch (the events are three array parameters).
  const candidates = await hotRows(
    client,
    chatDb
      .selectFrom(
        sql<{
          room_id: string;
          message_id: string;
          ord: number;
        }>`unnest(${roomIds}::uuid[], ${messageIds}::uuid[], ${ords}::int[])`.as<'e'>(sql`e(room_id, message_id, ord)`),
      )
      .innerJoin('room_members as m', 'm.room_id', 'e.room_id')
      .innerJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.account_id').on('b.deleted_at', 'is', null))
      .leftJoin('bot_room_settings as s', (join) => join.onRef('s.bot_id', '=', 'b.id').onRef('s.room_id', '=', 'e.room_id'))
      .select((eb) => [
        'e.ord',
        'e.message_id',
        'b.id as bot_id',
        'b.account_id',
        'b.username',
        eb.fn.coalesce('s.read_all', eb.lit(false)).as('read_all'),
        'b.allowed_updates',
      ])
      .orderBy('e.ord')
      .orderBy('b.id'),
  );
  const kindAt = new Map(events.map((e) => [e.ord, e.kind]));
  const wanted = candidates.filter((c) => allows(c.allowed_updates, kindAt.get(c.ord)!));
  if (wanted.length === 0) return [];
  const messages = await loadBotMessages(client, [...new Set(wanted.map((c) => c.message_id))]);
  const updates: NewUpdate[] = [];
  for (const c of wanted) {
    const m = messages.get(c.message_id);
    if (!m) continue;
    try {
      const incoming = {
        roomType: m.room_type,
        senderType: m.sender_type,
        text: m.recalled_at ? null : m.text,
        rootSenderId: m.root_sender_id,
      };
      if (!receives({ botAccountId: c.account_id, username: c.username, readAll: c.read_all }, incoming)) continue;
      const kind = kindAt.get(c.ord)!;
      updates.push({ ord: c.ord, botId: c.bot_id, kind, body: { [kind]: telegramMessage(m) } });
    } catch (err) {
      // One malformed row must not hold back the relay of every event.
      log.error({ err, messageId: c.message_id, botId: c.bot_id }, 'could not make a bot update');
    }
  }
  return updates;
}

async function callbackUpdates(client: SqlClient, events: CallbackPressed[]): Promise<NewUpdate[]> {
  if (events.length === 0) return [];
  const presses = await rows(
    client,
    chatDb
      .selectFrom(
        sql<{
          id: string;
          ord: number;
        }>`unnest(${events.map((e) => e.callbackQueryId)}::uuid[], ${events.map((e) => e.ord)}::int[])`.as<'e'>(sql`e(id, ord)`),
      )
      .innerJoin('bot_callback_queries as q', 'q.id', 'e.id')
      .innerJoin('bots as b', (join) => join.onRef('b.id', '=', 'q.bot_id').on('b.deleted_at', 'is', null))
      .innerJoin('accounts as a', 'a.id', 'q.account_id')
      .select([
        'e.ord',
        'q.id',
        'q.bot_id',
        'q.message_id',
        'q.data',
        'q.account_id',
        'a.bot_api_id as account_api_id',
        'a.display_name',
        'a.account_type',
        'q.room_id',
        'b.allowed_updates',
      ])
      .orderBy('e.ord'),
  );
  const wanted = presses.filter((r) => allows(r.allowed_updates, 'callback_query'));
  const messages = await loadBotMessages(client, [...new Set(wanted.map((r) => r.message_id))]);
  const updates: NewUpdate[] = [];
  for (const r of wanted) {
    const m = messages.get(r.message_id);
    if (!m) continue;
    updates.push({
      ord: r.ord,
      botId: r.bot_id,
      kind: 'callback_query',
      body: {
        callback_query: {
          id: r.id,
          from: telegramUser(r.account_api_id, r.display_name, r.account_type, null),
          message: telegramMessage(m),
          chat_instance: r.room_id,
          data: r.data,
        },
      },
    });
  }
  return updates;
}

/**
 * Numbers the updates per bot (in the order given) and stores them; returns the bots that have a webhook. That is
 * read under the bots' row locks: a webhook set by a transaction that commits meanwhile shows here, and one that
 * commits later waits for these locks, so its own delivery request comes after this commit and finds these updates.
 * Read any earlier, a webhook set in between would leave the updates to the periodic sweep.
 */
async function store(client: SqlClient, updates: NewUpdate[], at: Date): Promise<Set<string>> {
  const perBot = new Map<string, NewUpdate[]>();
  for (const u of updates) perBot.set(u.botId, [...(perBot.get(u.botId) ?? []), u]);
  const botIds = [...perBot.keys()].sort();
  const locked = await rows(
    client,
    chatDb
      .selectFrom('bots')
      .select((eb) => ['id', eb('webhook_url', 'is not', null).$castTo<boolean>().as('has_webhook')])
      .where(sql<boolean>`id = any(${botIds}::uuid[])`)
      .orderBy('id')
      .forUpdate(),
  );
  const counted = await rows(
    client,
    chatDb
      .updateTable('bots as b')
      .from(
        sql<{ id: string; n: number }>`unnest(${botIds}::uuid[], ${botIds.map((id) => perBot.get(id)!.length)}::int[])`.as<'c'>(
          sql`c(id, n)`,
        ),
      )
      .set((eb) => ({ last_update_id: eb('b.last_update_id', '+', eb.ref('c.n')) }))
      .whereRef('b.id', '=', 'c.id')
      .returning(['b.id', 'b.last_update_id']),
  );
  const ids: string[] = [];
  const botCol: string[] = [];
  const updateIds: number[] = [];
  const kinds: string[] = [];
  const payloads: string[] = [];
  for (const { id: botId, last_update_id: last } of counted) {
    const list = perBot.get(botId)!;
    list.forEach((u, i) => {
      const uuid = newId();
      const updateId = last - list.length + 1 + i;
      ids.push(uuid);
      botCol.push(botId);
      updateIds.push(updateId);
      kinds.push(u.kind);
      payloads.push(JSON.stringify({ update_id: updateId, update_uuid: uuid, ...u.body }));
    });
  }
  await affected(
    client,
    chatDb
      .insertInto('bot_updates')
      .columns(['id', 'bot_id', 'update_id', 'kind', 'payload', 'created_at'])
      .expression(
        chatDb
          .selectFrom(
            sql<{
              id: string;
              bot_id: string;
              update_id: number;
              kind: string;
              payload: unknown;
            }>`unnest(${ids}::uuid[], ${botCol}::uuid[], ${updateIds}::bigint[], ${kinds}::text[], ${payloads}::jsonb[])`.as<'u'>(
              sql`u(id, bot_id, update_id, kind, payload)`,
            ),
          )
          .select(['u.id', 'u.bot_id', 'u.update_id', 'u.kind', 'u.payload', sql<Date>`${at}::timestamptz`.as('created_at')]),
      ),
  );
  return new Set(locked.filter((b) => b.has_webhook).map((b) => b.id));
}

const messageKinds: Record<string, MessageEvent['kind'] | undefined> = {
  'message.created': 'message',
  'message.edited': 'edited_message',
};

export interface ConsumerParts {
  waiters: UpdateWaiters;
  deliveries: WebhookDeliveries;
  log: Logger;
  now: () => Date;
}

export function botUpdatesConsumer(parts: ConsumerParts): OutboxConsumer {
  return async (client, events) => {
    const created: MessageEvent[] = [];
    const pressed: CallbackPressed[] = [];
    events.forEach((e, ord) => {
      const p = e.payload as Record<string, unknown>;
      const kind = messageKinds[e.topic];
      if (kind) created.push({ ord, roomId: p.roomId as string, messageId: p.messageId as string, kind });
      else if (e.topic === 'bot.callback_query') pressed.push({ ord, callbackQueryId: p.callbackQueryId as string });
    });
    if (created.length === 0 && pressed.length === 0) return undefined;
    const producers = [...created, ...pressed].map((e) => events[e.ord]!.trace_context);
    return inConsumerSpan('bot.updates', producers, { 'messaging.batch.message_count': producers.length }, async () => {
      const fromMessages = await messageUpdates(client, created, parts.log);
      const fromPresses = await callbackUpdates(client, pressed);
      const updates = [...fromMessages, ...fromPresses].sort((a, b) => a.ord - b.ord);
      if (updates.length === 0) return undefined;
      const webhooks = await store(client, updates, parts.now());
      const woken = new Set(updates.map((u) => u.botId));
      return async () => {
        try {
          await parts.waiters.notify(woken);
        } catch (err) {
          parts.log.warn({ err }, 'could not wake long polls; they look again within seconds');
        }
        for (const botId of webhooks) await parts.deliveries.request(botId);
      };
    });
  };
}
