// Bot updates are made from the outbox, inside the relay's drain transaction: a message acknowledged to its sender
// has its outbox row committed, and the updates it causes commit with that row's publication, or neither does.
// So every way a message is created (send, thread reply, forward, scheduled sends, ...) reaches bots, and none is
// lost. Update ids are handed out under each bot's row lock, taken in id order (no deadlock between relays on
// several nodes), so a bot never sees update N before every update below N has committed. After the commit the
// bots' long polls are woken on every node and webhook deliveries are requested.
import type { SqlClient } from '../../../platform/db/sql.js';
import { newId } from '../../../platform/ids.js';
import type { Logger } from '../../../platform/logger.js';
import type { OutboxConsumer } from '../../../platform/outbox.js';
import { inConsumerSpan } from '../../../platform/tracing/consumer.js';
import type { WebhookDeliveries } from '../delivery/queue.js';
import { loadBotMessages, telegramMessage, telegramUser } from '../telegram.js';
import { receives } from './recipients.js';
import type { UpdateWaiters } from './waiters.js';
import { prepared } from '../../../platform/db/prepared.js';

/** Events carry their place in the drained batch, so a bot's updates follow the outbox order. */
interface MessageCreated {
  ord: number;
  roomId: string;
  messageId: string;
}

interface CallbackPressed {
  ord: number;
  callbackQueryId: string;
}

interface CandidateRow {
  ord: number;
  message_id: string;
  bot_id: string;
  account_id: string;
  username: string;
  read_all: boolean;
  allowed_updates: string[] | null;
  has_webhook: boolean;
}

interface NewUpdate {
  ord: number;
  botId: string;
  kind: 'message' | 'callback_query';
  body: Record<string, unknown>;
}

const allows = (allowed: string[] | null, kind: string) => allowed === null || allowed.length === 0 || allowed.includes(kind);

async function messageUpdates(
  client: SqlClient,
  events: MessageCreated[],
  log: Logger,
): Promise<{ updates: NewUpdate[]; webhooks: Set<string> }> {
  const webhooks = new Set<string>();
  if (events.length === 0) return { updates: [], webhooks };
  // The bots that are members of the rooms at this moment; the planner probes room_members per bot, so rooms
  // without bots cost one index lookup each.
  const { rows: candidates } = await client.query<CandidateRow>(
    prepared(
      `select e.ord, e.message_id, b.id as bot_id, b.account_id, b.username, coalesce(s.read_all, false) as read_all, b.allowed_updates,
            b.webhook_url is not null as has_webhook
       from unnest($1::uuid[], $2::uuid[], $3::int[]) e(room_id, message_id, ord)
       join room_members m on m.room_id = e.room_id
       join bots b on b.account_id = m.account_id and b.deleted_at is null
       left join bot_room_settings s on s.bot_id = b.id and s.room_id = e.room_id
      order by e.ord, b.id`,
      [events.map((e) => e.roomId), events.map((e) => e.messageId), events.map((e) => e.ord)],
    ),
  );
  const wanted = candidates.filter((c) => allows(c.allowed_updates, 'message'));
  if (wanted.length === 0) return { updates: [], webhooks };
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
      updates.push({ ord: c.ord, botId: c.bot_id, kind: 'message', body: { message: telegramMessage(m) } });
      if (c.has_webhook) webhooks.add(c.bot_id);
    } catch (err) {
      // One malformed row must not hold back the relay of every event.
      log.error({ err, messageId: c.message_id, botId: c.bot_id }, 'could not make a bot update');
    }
  }
  return { updates, webhooks };
}

interface PressRow {
  ord: number;
  id: string;
  bot_id: string;
  message_id: string;
  data: string;
  account_id: string;
  account_api_id: number;
  display_name: string;
  account_type: string;
  room_id: string;
  allowed_updates: string[] | null;
  has_webhook: boolean;
}

async function callbackUpdates(client: SqlClient, events: CallbackPressed[]): Promise<{ updates: NewUpdate[]; webhooks: Set<string> }> {
  const webhooks = new Set<string>();
  if (events.length === 0) return { updates: [], webhooks };
  const { rows } = await client.query<PressRow>(
    `select e.ord, q.id, q.bot_id, q.message_id, q.data, q.account_id, a.bot_api_id as account_api_id, a.display_name, a.account_type, q.room_id, b.allowed_updates,
            b.webhook_url is not null as has_webhook
       from unnest($1::uuid[], $2::int[]) e(id, ord)
       join bot_callback_queries q on q.id = e.id
       join bots b on b.id = q.bot_id and b.deleted_at is null
       join accounts a on a.id = q.account_id
      order by e.ord`,
    [events.map((e) => e.callbackQueryId), events.map((e) => e.ord)],
  );
  const wanted = rows.filter((r) => allows(r.allowed_updates, 'callback_query'));
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
    if (r.has_webhook) webhooks.add(r.bot_id);
  }
  return { updates, webhooks };
}

/** Numbers the updates per bot (in the order given) and stores them. */
async function store(client: SqlClient, updates: NewUpdate[], at: Date): Promise<void> {
  const perBot = new Map<string, NewUpdate[]>();
  for (const u of updates) perBot.set(u.botId, [...(perBot.get(u.botId) ?? []), u]);
  const botIds = [...perBot.keys()].sort();
  await client.query('select id from bots where id = any($1::uuid[]) order by id for update', [botIds]);
  const { rows } = await client.query<{ id: string; last_update_id: number }>(
    `update bots b set last_update_id = b.last_update_id + c.n from unnest($1::uuid[], $2::int[]) c(id, n)
      where b.id = c.id returning b.id, b.last_update_id`,
    [botIds, botIds.map((id) => perBot.get(id)!.length)],
  );
  const ids: string[] = [];
  const botCol: string[] = [];
  const updateIds: number[] = [];
  const kinds: string[] = [];
  const payloads: string[] = [];
  for (const { id: botId, last_update_id: last } of rows) {
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
  await client.query(
    `insert into bot_updates (id, bot_id, update_id, kind, payload, created_at)
     select * , $6::timestamptz from unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::jsonb[])`,
    [ids, botCol, updateIds, kinds, payloads, at],
  );
}

export interface ConsumerParts {
  waiters: UpdateWaiters;
  deliveries: WebhookDeliveries;
  log: Logger;
  now: () => Date;
}

export function botUpdatesConsumer(parts: ConsumerParts): OutboxConsumer {
  return async (client, events) => {
    const created: MessageCreated[] = [];
    const pressed: CallbackPressed[] = [];
    events.forEach((e, ord) => {
      const p = e.payload as Record<string, unknown>;
      if (e.topic === 'message.created') created.push({ ord, roomId: p.roomId as string, messageId: p.messageId as string });
      else if (e.topic === 'bot.callback_query') pressed.push({ ord, callbackQueryId: p.callbackQueryId as string });
    });
    if (created.length === 0 && pressed.length === 0) return undefined;
    const producers = [...created, ...pressed].map((e) => events[e.ord]!.trace_context);
    return inConsumerSpan('bot.updates', producers, { 'messaging.batch.message_count': producers.length }, async () => {
      const fromMessages = await messageUpdates(client, created, parts.log);
      const fromPresses = await callbackUpdates(client, pressed);
      const updates = [...fromMessages.updates, ...fromPresses.updates].sort((a, b) => a.ord - b.ord);
      if (updates.length === 0) return undefined;
      await store(client, updates, parts.now());
      const woken = new Set(updates.map((u) => u.botId));
      const webhooks = new Set([...fromMessages.webhooks, ...fromPresses.webhooks]);
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
