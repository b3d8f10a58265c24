// editMessageText, editMessageCaption and editMessageReplyMarkup: one edit of a message the bot sent, over the
// chat's message edit (the room sees message.edited). Each names what it replaces; the keyboard is always replaced
// (removed when absent), as in Telegram. A caption is the text of a message that carries a file.
import { inTransaction } from '../../../platform/db/sql.js';
import { emit, roomAudience } from '../../events/emit.js';
import type { BotDeps } from '../deps.js';
import { storedKeyboard, type StoredKeyboard } from '../../base/keyboard.js';
import { roomOfChat, type ChatRef } from './chats.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { lockMessageToEdit, writeEdit } from './message-queries.js';
import type { BotSendLimit } from './send-limit.js';
import { storedFormatting } from './text-mentions.js';
import type { FormattingEntity } from '../formatting/index.js';

export type Markup = { inline_keyboard: Array<Array<Record<string, unknown>>> };

export interface EditTarget {
  chat_id: ChatRef;
  message_id: number;
  reply_markup?: Markup;
}

/**
 * What an edit replaces besides the keyboard: the text or the caption with its formatting (formatted-text.ts), or
 * nothing (editMessageReplyMarkup).
 */
export type EditedContent = { kind: 'text' | 'caption'; text: string; formatting: FormattingEntity[] | null } | { kind: 'markup' };

export function keyboardOf(markup: Markup | undefined): StoredKeyboard | null {
  if (markup === undefined) return null;
  const keyboard = storedKeyboard(markup);
  if (typeof keyboard === 'string') throw botApiErrors.badRequest(keyboard);
  return keyboard;
}

/** JSON with object keys in one order: jsonb gives stored objects back with their keys reordered. */
const canonical = (value: unknown) =>
  JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

const notModified =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

/** Telegram's refusal when the method does not fit the message: text edits need a text message, captions a file. */
function mismatch(content: EditedContent, hasFile: boolean): string | undefined {
  if (content.kind === 'text' && hasFile) return 'there is no text in the message to edit';
  if (content.kind === 'caption' && !hasFile) return 'there is no caption in the message to edit';
  return undefined;
}

/** Applies the edit and answers the chat's id of the edited message. */
export async function editBotMessage(
  deps: BotDeps,
  limit: BotSendLimit,
  bot: BotPrincipal,
  target: EditTarget,
  content: EditedContent,
): Promise<string> {
  const keyboard = keyboardOf(target.reply_markup);
  await limit.check(bot.id);
  const now = deps.clock.now();
  return inTransaction(deps.sql, async (client) => {
    const roomId = await roomOfChat(client, bot, target.chat_id);
    const message = await lockMessageToEdit(client, roomId, target.message_id);
    if (!message || message.recalled_at !== null) throw botApiErrors.badRequest('message to edit not found');
    if (message.sender_id !== bot.accountId) throw botApiErrors.badRequest("message can't be edited");
    const files = message.attachments as unknown[] | null;
    const refused = mismatch(content, Array.isArray(files) && files.length > 0);
    if (refused) throw botApiErrors.badRequest(refused);
    const text = content.kind === 'markup' ? message.text : content.text;
    const formatting = content.kind === 'markup' ? message.formatting : await storedFormatting(client, roomId, content.formatting);
    if (message.text === text && same(message.formatting, formatting) && same(message.inline_keyboard, keyboard)) {
      throw botApiErrors.badRequest(notModified);
    }
    await writeEdit(client, message.id, {
      text,
      at: now,
      inlineKeyboard: keyboard === null ? null : JSON.stringify(keyboard),
      formatting: formatting === null ? null : JSON.stringify(formatting),
    });
    await emit(
      client,
      'message.edited',
      { roomId, messageId: message.id, senderId: bot.accountId, editedAt: now.toISOString() },
      roomAudience(roomId),
    );
    return message.id;
  });
}
