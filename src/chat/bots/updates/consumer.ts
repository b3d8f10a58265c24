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
import { withPoll } from '../poll-messages.js';
import { loadBotMessages, telegramMessage, telegramUser } from '../telegram.js';
import { allows } from './allowed.js';
import { memberTopics, memberUpdates } from './member-updates.js';
import { forTheRoom, type NewUpdate, type PlacedEvent } from './new-update.js';
import { pollTopics, pollUpdates } from './poll-updates.js';
import { reactionTopics, reactionUpdates } from './reaction-updates.js';
import { callbackPresses, countUpdates, insertUpdates, lockBotsForUpdates, messageCandidates } from './queries.js';
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

async function messageUpdates(client: SqlClient, events: MessageEvent[], log: Logger): Promise<NewUpdate[]> {
  if (events.length === 0) return [];
  const [roomIds, messageIds, ords] = [events.map((e) => e.roomId), events.map((e) => e.messageId), events.map((e) => e.ord)];
  const candidates = await messageCandidates(client, { roomIds, messageIds, ords });
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
      const shown = telegramMessage(m);
      const message = m.poll_id === null ? shown : await withPoll(client, shown, m.poll_id, { id: c.bot_id, accountId: c.account_id });
      updates.push({ ord: c.ord, botId: c.bot_id, kind, body: { [kind]: message } });
    } catch (err) {
      // One malformed row must not hold back the relay of every event.
      log.error({ err, messageId: c.message_id, botId: c.bot_id }, 'could not make a bot update');
    }
  }
  return updates;
}

async function callbackUpdates(client: SqlClient, events: CallbackPressed[]): Promise<NewUpdate[]> {
  if (events.length === 0) return [];
  const presses = await callbackPresses(client, { ids: events.map((e) => e.callbackQueryId), ords: events.map((e) => e.ord) });
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
  const locked = await lockBotsForUpdates(client, botIds);
  const counted = await countUpdates(
    client,
    botIds,
    botIds.map((id) => perBot.get(id)!.length),
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
  await insertUpdates(client, { ids, botIds: botCol, updateIds, kinds, payloads }, at);
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

/** The events of a batch by the producer that turns them into updates. */
function sortEvents(events: Parameters<OutboxConsumer>[1]) {
  const sorted = {
    created: [] as MessageEvent[],
    pressed: [] as CallbackPressed[],
    polls: [] as PlacedEvent[],
    reactions: [] as PlacedEvent[],
    members: [] as PlacedEvent[],
  };
  events.forEach((e, ord) => {
    const p = e.payload as Record<string, unknown>;
    const kind = messageKinds[e.topic];
    const placed = { ord, topic: e.topic, payload: p };
    if (kind) sorted.created.push({ ord, roomId: p.roomId as string, messageId: p.messageId as string, kind });
    else if (e.topic === 'bot.callback_query') sorted.pressed.push({ ord, callbackQueryId: p.callbackQueryId as string });
    else if (pollTopics.has(e.topic)) sorted.polls.push(placed);
    else if (reactionTopics.has(e.topic)) sorted.reactions.push(placed);
    else if (memberTopics.has(e.topic) && forTheRoom(p)) sorted.members.push(placed);
  });
  return sorted;
}

export function botUpdatesConsumer(parts: ConsumerParts): OutboxConsumer {
  return async (client, events) => {
    const sorted = sortEvents(events);
    const relevant = [...sorted.created, ...sorted.pressed, ...sorted.polls, ...sorted.reactions, ...sorted.members];
    if (relevant.length === 0) return undefined;
    const producers = relevant.map((e) => events[e.ord]!.trace_context);
    return inConsumerSpan('bot.updates', producers, { 'messaging.batch.message_count': producers.length }, async () => {
      const now = parts.now();
      const updates = [
        ...(await messageUpdates(client, sorted.created, parts.log)),
        ...(await callbackUpdates(client, sorted.pressed)),
        ...(await pollUpdates(client, sorted.polls)),
        ...(await reactionUpdates(client, sorted.reactions, now)),
        ...(await memberUpdates(client, sorted.members, now)),
      ].sort((a, b) => a.ord - b.ord);
      if (updates.length === 0) return undefined;
      const webhooks = await store(client, updates, now);
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
