export type MessageType = 'TEXT' | 'POLL';
import { attachmentViews, type AttachmentView, type StoredAttachment } from './attachment-views.js';
import { chatKeyboard, type ChatButton, type StoredKeyboard } from './keyboard.js';
import { chatReplyMarkup, type ChatReplyMarkup, type StoredReplyMarkup } from './reply-keyboard.js';
import { formattingViews, type FormattingView, type StoredFormatting } from './formatting.js';
import type { Selectable } from 'kysely';
import type { ChatTables } from './tables.js';

/** The columns every message view reads, in the order the hand-written statements of other folders list them. */
export const messageColumnNames = [
  'id',
  'room_id',
  'seq',
  'sender_id',
  'type',
  'text',
  'client_message_id',
  'thread_root_id',
  'created_at',
  'edited_at',
  'recalled_at',
  'forwarded_from_room_id',
  'forwarded_from_message_id',
  'poll_id',
  'attachments',
  'inline_keyboard',
  'entities',
  'reply_markup',
  'formatting',
] as const;
type MessageColumn = (typeof messageColumnNames)[number];

/** messageColumnNames of the table alias `alias`, for typed statements that join messages with other tables. */
export const messageColumnsIn = <A extends string>(alias: A) => messageColumnNames.map((c) => `${alias}.${c}` as `${A}.${MessageColumn}`);

type StoredMessage = Pick<Selectable<ChatTables['messages']>, MessageColumn>;

/** A message as the entity maps it, with its jsonb columns in the shapes their writers store. */
export type MessageRow = Omit<StoredMessage, 'type' | 'attachments' | 'inline_keyboard' | 'entities' | 'reply_markup' | 'formatting'> & {
  type: MessageType;
  /** Files the message carries (src/chat/media/attachments.ts); null when none. */
  attachments: StoredAttachment[] | null;
  /** Buttons of a bot's message (Bot API reply_markup). */
  inline_keyboard: StoredKeyboard | null;
  /** A bot's reply keyboard, its removal or a forced reply (src/chat/base/reply-keyboard.ts); null when none. */
  reply_markup: StoredReplyMarkup | null;
  /** Mentions found in the text (src/chat/mentions); null when none. */
  entities: MentionEntity[] | null;
  /** Formatting of a bot's text (base/formatting.ts); null when none. */
  formatting: StoredFormatting[] | null;
  /** Per caller; selected with hiddenForMe, absent (false) where no caller view applies. */
  hidden_for_me?: boolean;
  /** Replies of a root; selected where the view carries thread summaries. */
  reply_count?: number;
  /** Readers of the message; selected by the scroll page, null where it does not count them (docs/adr/0154-read-receipts.md). */
  read_count?: number | null;
};

/** A typed statement's message row read as MessageRow: the jsonb columns hold what the message writers put there. */
export const asMessageRow = <R extends StoredMessage>(row: R): Omit<R, keyof MessageRow> & MessageRow => row as never;

/** A mention in a message's entities (stored jsonb, and on the wire). */
export interface MentionEntity {
  type: 'mention';
  offset: number;
  length: number;
  /** The account mentioned; absent for @all and @here. */
  accountId?: string;
  broadcast?: 'all' | 'here';
}

export interface MessageView {
  id: string;
  roomId: string;
  senderId: string;
  type: MessageType;
  text: string | null;
  clientMessageId: string | null;
  threadRootId: string | null;
  createdAt: string;
  editedAt: string | null;
  recalled: boolean;
  hiddenForMe: boolean;
  forwardedFrom: { roomId: string; messageId: string } | null;
  pollId?: string;
  attachments: AttachmentView[];
  inlineKeyboard?: ChatButton[][];
  replyMarkup?: ChatReplyMarkup;
  entities: MentionEntity[];
  formatting?: FormattingView[];
  readCount?: number;
}

export const messageColumns =
  'id, room_id, seq, sender_id, type, text, client_message_id, thread_root_id, created_at, edited_at, recalled_at, ' +
  'forwarded_from_room_id, forwarded_from_message_id, poll_id, attachments, inline_keyboard, entities, reply_markup, formatting';

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
    hiddenForMe: row.hidden_for_me ?? false,
    forwardedFrom:
      row.forwarded_from_room_id && row.forwarded_from_message_id
        ? { roomId: row.forwarded_from_room_id, messageId: row.forwarded_from_message_id }
        : null,
    ...(row.poll_id ? { pollId: row.poll_id } : {}),
    // A recalled message no longer shows (or serves) its files.
    attachments: recalled ? [] : attachmentViews(row.attachments),
    ...(row.inline_keyboard && !recalled ? { inlineKeyboard: chatKeyboard(row.inline_keyboard) } : {}),
    ...(row.reply_markup && !recalled ? { replyMarkup: chatReplyMarkup(row.reply_markup) } : {}),
    // A recalled message has no text left to point into.
    entities: recalled ? [] : (row.entities ?? []),
    ...(row.formatting && row.formatting.length > 0 && !recalled ? { formatting: formattingViews(row.formatting) } : {}),
    ...(row.read_count !== undefined && row.read_count !== null ? { readCount: row.read_count } : {}),
  };
}
