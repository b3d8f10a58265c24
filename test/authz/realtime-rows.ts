// Rows of the authorization table for realtime's REST operation (see chat-rows.ts for the defaults): the caller's
// own event stream, open to every active account and to nobody else's stream by construction.
import { row, type Row } from './row.js';

export const realtimeRows: Row[] = [
  row({
    operationId: 'listMyEvents',
    method: 'GET',
    path: '/api/v1/me/events',
    audience: 'caller',
    request: () => ({ query: { after: '0', limit: '10' } }),
  }),
];
