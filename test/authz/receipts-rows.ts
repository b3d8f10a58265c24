// Rows of the authorization table for read receipts (see chat-rows.ts for the defaults): a message's receipts are
// for the room's members (a non-member gets 404 room_not_found); the caller's own receipt setting is open to every
// active account.
import { row, type Row } from './row.js';

export const receiptsRows: Row[] = [
  row({
    operationId: 'listMessageReceipts',
    method: 'GET',
    path: '/api/v1/rooms/{roomId}/messages/{messageId}/receipts',
    audience: 'room',
    request: (w) => ({ params: { roomId: w.roomId, messageId: w.ownerMessageId } }),
  }),
  row({
    operationId: 'getReceiptSettings',
    method: 'GET',
    path: '/api/v1/me/read-receipts',
    audience: 'caller',
    request: () => ({}),
  }),
  row({
    operationId: 'setReceiptSettings',
    method: 'PUT',
    path: '/api/v1/me/read-receipts',
    audience: 'caller',
    request: () => ({ body: { shareReadReceipts: false } }),
  }),
];
