// Authorization rows of the bot operations of the chat spec. A bot belongs to the world's tenant: its accounts
// (members or not of the world's room) and platform administrators manage it, deleting it included; creating bots is
// for platform administrators; the read-all switch also needs an owner or admin of the room; pressing a button is for
// members of the room.
import { call } from '../support/platform.js';
import { PERSONAS, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

interface WorldBot {
  id: string;
  accountId: string;
  token: string;
}

async function must(what: string, res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`bot row setup, ${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** A bot of the world's tenant, made through the administration API. */
async function bot(w: World, suffix = ''): Promise<WorldBot> {
  const made = await must(
    'create bot',
    call(w.platform.chatUrl, 'POST', '/api/v1/bots', {
      token: w.platformAdmin.token,
      body: {
        username: `authz_${w.tag}${suffix}`,
        displayName: 'Authz bot',
        moduleCode: w.tenant.moduleCode,
        customerAccountId: w.tenant.customer,
      },
    }),
  );
  return { id: made.bot.id, accountId: made.bot.accountId, token: made.token };
}

/** One bot of the world's tenant per persona: each persona allowed to delete deletes a bot of its own. */
async function botPerPersona(w: World): Promise<Record<Persona, WorldBot>> {
  const made = await Promise.all(PERSONAS.map(async (p, i) => [p, await bot(w, `_d${i}`)] as const));
  return Object.fromEntries(made) as Record<Persona, WorldBot>;
}

/** A bot that the owner added to the world's room. */
async function botInRoom(w: World): Promise<WorldBot> {
  const b = await bot(w);
  await must(
    'add bot',
    call(w.platform.chatUrl, 'POST', `/api/v1/rooms/${w.roomId}/members`, { token: w.owner.token, body: { accountIds: [b.accountId] } }),
  );
  return b;
}

const byId = (_w: World, _p: unknown, b: WorldBot) => ({ params: { id: b.id } });

export const botRows: Row[] = [
  row({ operationId: 'listBots', method: 'GET', path: '/api/v1/bots', audience: 'caller', setup: bot, request: () => ({}) }),
  row({
    operationId: 'createBot',
    method: 'POST',
    path: '/api/v1/bots',
    audience: 'platformAdmin',
    request: (w) => ({
      body: { username: `made_${w.tag}`, displayName: 'Made', moduleCode: w.tenant.moduleCode, customerAccountId: w.tenant.customer },
    }),
  }),
  row({ operationId: 'getBot', method: 'GET', path: '/api/v1/bots/{id}', audience: 'caller', setup: bot, request: byId }),
  row({
    operationId: 'updateBot',
    method: 'PATCH',
    path: '/api/v1/bots/{id}',
    audience: 'caller',
    setup: bot,
    request: (_w, p, b) => ({ params: { id: b.id }, body: { description: `Changed by ${p}` } }),
  }),
  row({
    operationId: 'deleteBot',
    method: 'DELETE',
    path: '/api/v1/bots/{id}',
    audience: 'caller',
    setup: botPerPersona,
    request: (_w, p, bots) => ({ params: { id: bots[p].id } }),
  }),
  row({
    operationId: 'setBotWebhook',
    method: 'POST',
    path: '/api/v1/bots/{id}/webhook',
    audience: 'caller',
    setup: bot,
    request: (_w, p, b) => ({ params: { id: b.id }, body: { url: `https://example.com/${p}` } }),
  }),
  row({
    operationId: 'regenerateBotToken',
    method: 'POST',
    path: '/api/v1/bots/{id}/regenerate-token',
    audience: 'caller',
    setup: bot,
    request: byId,
  }),
  row({
    operationId: 'setBotRoomReadAll',
    method: 'PATCH',
    path: '/api/v1/bots/{id}/rooms/{roomId}',
    audience: 'room',
    allowed: ['admin', 'owner'],
    setup: botInRoom,
    request: (w, p, b) => ({ params: { id: b.id, roomId: w.roomId }, body: { readAll: p === 'admin' } }),
  }),
  row({ operationId: 'listWebhooks', method: 'GET', path: '/api/v1/webhooks', audience: 'caller', setup: bot, request: () => ({}) }),
  row({
    operationId: 'createWebhook',
    method: 'POST',
    path: '/api/v1/webhooks',
    audience: 'caller',
    setup: bot,
    request: (_w, p, b) => ({ body: { botId: b.id, url: `https://example.com/${p}` } }),
  }),
  row({
    operationId: 'pressInlineButton',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/callback',
    audience: 'room',
    setup: async (w) => {
      const b = await botInRoom(w);
      const res = await fetch(`${w.platform.chatUrl}/bot/${b.token}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: w.roomId, text: 'Pick', reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] } }),
      });
      const sent = (await res.json()) as { ok: boolean; result: { message_id: number } };
      if (!sent.ok) throw new Error(`bot row setup, send: ${JSON.stringify(sent)}`);
      const { rows } = await w.platform.db.query<{ id: string }>('select id from messages where room_id = $1 and seq = $2', [
        w.roomId,
        sent.result.message_id,
      ]);
      return rows[0]!.id;
    },
    request: (w, _p, messageId) => ({ params: { roomId: w.roomId, messageId }, body: { data: 'a' } }),
  }),
  row({
    operationId: 'getReplyKeyboard',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/reply-keyboard',
    audience: 'room',
    request: (w) => ({ params: { roomId: w.roomId } }),
  }),
];
