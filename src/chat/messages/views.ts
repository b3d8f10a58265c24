export interface MessageRow {
  id: string;
  room_id: string;
  seq: number;
  sender_id: string;
  type: 'TEXT';
  text: string | null;
  client_message_id: string | null;
  thread_root_id: string | null;
  created_at: Date;
  edited_at: Date | null;
  recalled_at: Date | null;
}

export interface MessageView {
  id: string;
  roomId: string;
  senderId: string;
  type: 'TEXT';
  text: string | null;
  clientMessageId: string | null;
  threadRootId: string | null;
  createdAt: string;
  editedAt: string | null;
  recalled: boolean;
  hiddenForMe: boolean;
  forwardedFrom: { roomId: string; messageId: string } | null;
}

export const messageColumns =
  'id, room_id, seq, sender_id, type, text, client_message_id, thread_root_id, created_at, edited_at, recalled_at';

export function messageView(row: MessageRow): MessageView {
  const recalled = row.recalled_at !== null;
  return {
    id: row.id,
    roomId: row.room_id,
    senderId: row.sender_id,
    type: row.type,
    text: recalled ? null : row.text,
    clientMessageId: row.client_message_id,
    threadRootId: row.thread_root_id,
    createdAt: row.created_at.toISOString(),
    editedAt: row.edited_at ? row.edited_at.toISOString() : null,
    recalled,
    hiddenForMe: false,
    forwardedFrom: null,
  };
}
