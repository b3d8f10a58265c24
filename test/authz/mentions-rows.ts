// Authorization rows of the mentions inbox. The inbox is the caller's own: anyone may list and mark theirs; one
// mention belongs to the account it names, so anyone else naming its message gets the same 404 as for a message
// that mentions nobody. Marking the mentions of one room needs membership (404 room_not_found otherwise).
import { refusal, type Persona } from './personas.js';
import { row, type Row } from './row.js';
import type { World } from './world.js';

const MENTION_NOT_FOUND = refusal(404, 'mention_not_found');

/** A message of the owner mentioning the member by the id form. */
const mentionOfMember = async (w: World) => w.send(w.accountOf('owner')!, w.roomId, `please look, <@${w.accountOf('member')!.id}>`);

export const mentionRows: Row[] = [
  row({
    operationId: 'listMentions',
    method: 'GET',
    path: '/api/v1/me/mentions',
    audience: 'caller',
    request: () => ({ query: { limit: '10' } }),
  }),
  row({
    operationId: 'markMentionsRead',
    method: 'POST',
    path: '/api/v1/me/mentions/read',
    audience: 'caller',
    setup: mentionOfMember,
    request: () => ({ body: {} }),
  }),
  row({
    operationId: 'markMentionsRead',
    variant: 'one room',
    method: 'POST',
    path: '/api/v1/me/mentions/read',
    audience: 'room',
    setup: mentionOfMember,
    request: (w) => ({ body: { roomId: w.roomId } }),
  }),
  row({
    operationId: 'markMentionRead',
    method: 'POST',
    path: '/api/v1/me/mentions/{messageId}/read',
    audience: 'caller',
    allowed: ['member'] as Persona[],
    outcomes: { nonMember: MENTION_NOT_FOUND, admin: MENTION_NOT_FOUND, owner: MENTION_NOT_FOUND, platformAdmin: MENTION_NOT_FOUND },
    setup: mentionOfMember,
    request: (_w, _p, messageId) => ({ params: { messageId } }),
  }),
];
