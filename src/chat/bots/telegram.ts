// Chat messages in the shape the Bot API hands to bots (Telegram's Message object): message_id is the room
// sequence number, chat.id the room's integer id (negative for groups, as Telegram's), from.id the sender
// account's integer id; a thread reply carries its root as message_thread_id with is_topic_message, and as
// reply_to_message. A message carrying files shows its first in the field of its kind (api/file-views.ts), and its
// text as caption.
import type { Runner } from '../../platform/db/typed.js';
import { fileFields, type BotAttachment, type FileFields } from './api/file-views.js';
import { telegramEntities, type TelegramEntity } from './formatted-entities.js';
import type { StoredFormatting } from '../base/formatting.js';
import type { StoredKeyboard } from '../base/keyboard.js';
import type { TelegramPoll } from './poll-objects.js';
import { botMessages, type BotMessageRow } from './message-queries.js';

export type { BotMessageRow } from './message-queries.js';

export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface TelegramChat {
  id: number;
  type: 'private' | 'group';
  title?: string;
}

export type { BotAttachment } from './api/file-views.js';

export interface RepliedMessage extends FileFields {
  message_id: number;
  from: TelegramUser;
  chat: TelegramChat;
  date: number;
  text?: string;
  entities?: TelegramEntity[];
  edit_date?: number;
  reply_markup?: { inline_keyboard: StoredKeyboard };
  caption?: string;
  caption_entities?: TelegramEntity[];
}

export interface TelegramMessage extends RepliedMessage {
  message_thread_id?: number;
  is_topic_message?: boolean;
  reply_to_message?: RepliedMessage;
  forward_origin?: { type: 'user'; sender_user: TelegramUser; date: number };
  poll?: TelegramPoll;
}

export async function loadBotMessages(db: Runner, ids: string[]): Promise<Map<string, BotMessageRow>> {
  if (ids.length === 0) return new Map();
  const found = await botMessages(db, ids);
  return new Map(found.map((r) => [r.id, r]));
}

const unix = (at: Date) => Math.floor(at.getTime() / 1000);

export function telegramUser(id: number, name: string, type: string, username: string | null): TelegramUser {
  return { id, is_bot: type === 'BOT', first_name: name, ...(username ? { username } : {}) };
}

/** A room's chat id: its integer id, negated for groups as Telegram's group ids are negative. */
export function chatIdOf(roomApiId: number, type: string): number {
  return type === 'PRIVATE' ? roomApiId : -roomApiId;
}

export function telegramChat(roomApiId: number, type: string, name: string | null): TelegramChat {
  const id = chatIdOf(roomApiId, type);
  return type === 'PRIVATE' ? { id, type: 'private' } : { id, type: 'group', ...(name ? { title: name } : {}) };
}

/** What a message holds besides its sender and place: text, formatting, keyboard, files. */
interface Content {
  text: string | null;
  recalled: boolean;
  keyboard: StoredKeyboard | null;
  edited: Date | null;
  files: BotAttachment[] | null;
  formatting: StoredFormatting[] | null;
}

function body({ text, recalled, keyboard, edited, files, formatting }: Content) {
  if (recalled || text === null) return {};
  const entities = telegramEntities(text, formatting);
  const file = files?.[0];
  const content = file
    ? { ...fileFields(file), ...(text !== '' ? { caption: text } : {}), ...(entities.length > 0 ? { caption_entities: entities } : {}) }
    : { text, ...(entities.length > 0 ? { entities } : {}) };
  return {
    ...content,
    ...(edited ? { edit_date: unix(edited) } : {}),
    ...(keyboard ? { reply_markup: { inline_keyboard: keyboard } } : {}),
  };
}

export function telegramMessage(row: BotMessageRow): TelegramMessage {
  const chat = telegramChat(row.room_api_id, row.room_type, row.room_name);
  const message: TelegramMessage = {
    message_id: row.seq,
    from: telegramUser(row.sender_api_id, row.sender_name, row.sender_type, row.sender_username),
    chat,
    date: unix(row.created_at),
    ...body({
      text: row.text,
      recalled: row.recalled_at !== null,
      keyboard: row.inline_keyboard,
      edited: row.edited_at,
      files: row.attachments,
      formatting: row.formatting,
    }),
  };
  if (row.origin_sender_api_id !== null && row.origin_created_at !== null) {
    message.forward_origin = {
      type: 'user',
      sender_user: telegramUser(row.origin_sender_api_id, row.origin_sender_name!, row.origin_sender_type!, null),
      date: unix(row.origin_created_at),
    };
  }
  if (row.thread_root_id !== null && row.root_seq !== null) {
    message.message_thread_id = row.root_seq;
    message.is_topic_message = true;
    message.reply_to_message = {
      message_id: row.root_seq,
      from: telegramUser(row.root_sender_api_id!, row.root_sender_name!, row.root_sender_type!, row.root_sender_username),
      chat,
      date: unix(row.root_created_at!),
      ...body({
        text: row.root_text,
        recalled: row.root_recalled_at !== null,
        keyboard: row.root_inline_keyboard,
        edited: row.root_edited_at,
        files: row.root_attachments,
        formatting: row.root_formatting,
      }),
    };
  }
  return message;
}
