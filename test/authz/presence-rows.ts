// Rows of the authorization table for typing and presence (see chat-rows.ts for the defaults): typing is for the
// room's members; the caller's presence setting and presence lookups are open to every active account, which learns
// only what its rooms and contacts allow (docs/realtime.md "Presence and typing").
import { row, type Row } from './row.js';

export const presenceRows: Row[] = [
  row({
    operationId: 'sendTyping',
    method: 'POST',
    path: '/api/v1/rooms/{roomId}/typing',
    audience: 'room',
    request: (w) => ({ params: { roomId: w.roomId } }),
  }),
  row({
    operationId: 'setMyPresence',
    method: 'PUT',
    path: '/api/v1/me/presence',
    audience: 'caller',
    request: () => ({ body: { status: 'AWAY' } }),
  }),
  row({
    operationId: 'listPresence',
    method: 'GET',
    path: '/api/v1/presence',
    audience: 'caller',
    request: (w) => ({ query: { accountIds: `${w.accountOf('owner')!.id},${w.accountOf('member')!.id}` } }),
  }),
];
