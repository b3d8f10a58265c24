// Reads a Bot API reply_markup of any kind: an inline keyboard (src/chat/base/keyboard.ts keeps its buttons), a reply
// keyboard, its removal or a forced reply. It runs before the schema's validation (reply-markup-check.ts), so it
// takes any JSON value and answers Telegram's kind of reason instead of a schema path.
import { storedKeyboard, type StoredKeyboard } from '../../base/keyboard.js';
import type { StoredReplyButton, StoredReplyMarkup } from '../../base/reply-keyboard.js';

/** What a send keeps: an inline keyboard on the message, or reply markup for its recipients (before selection). */
export type ReadMarkup = { inline: StoredKeyboard } | { reply: StoredReplyMarkup };

type Json = Record<string, unknown>;

const kinds = ['inline_keyboard', 'keyboard', 'remove_keyboard', 'force_reply'] as const;
const maxReplyButtonsPerRow = 12;
const maxButtons = 100;
const maxInlineRows = 10;
const maxReplyTextLength = 256;
const maxInlineTextLength = 64;
const maxPlaceholderLength = 64;

// Reply keyboard buttons Telegram has and the platform cannot serve, with the reason.
const refusedRequests: Record<string, string> = {
  request_users: 'the platform does not share users with bots',
  request_user: 'the platform does not share users with bots',
  request_chat: 'the platform does not share chats with bots',
  request_contact: 'the platform shares no phone numbers with bots',
  request_location: 'the platform shares no locations with bots',
  web_app: 'the platform has no Web Apps',
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max && !v.includes('\0');

function booleanField(markup: Json, name: string): boolean | string {
  const value = markup[name];
  if (value === undefined) return false;
  return typeof value === 'boolean' ? value : `field "${name}" must be of type Boolean`;
}

function placeholderField(markup: Json): { input_field_placeholder?: string } | string {
  const value = markup.input_field_placeholder;
  if (value === undefined) return {};
  if (!isText(value, maxPlaceholderLength)) return `input_field_placeholder must be 1 to ${maxPlaceholderLength} characters`;
  return { input_field_placeholder: value };
}

function replyButton(button: unknown, where: string): StoredReplyButton | string {
  if (typeof button === 'string') button = { text: button };
  if (!isObject(button)) return `keyboard button ${where} must be a String or a KeyboardButton`;
  for (const [kind, reason] of Object.entries(refusedRequests))
    if (button[kind] !== undefined) return `keyboard button ${where}: ${kind} buttons are not supported: ${reason}`;
  if (!isText(button.text, maxReplyTextLength)) return `text of keyboard button ${where} must be 1 to ${maxReplyTextLength} characters`;
  const poll = button.request_poll;
  if (poll === undefined) return { text: button.text };
  const type = isObject(poll) ? poll.type : null;
  if (type !== undefined && type !== 'quiz' && type !== 'regular')
    return `request_poll of keyboard button ${where} must be an object whose type is quiz or regular`;
  return { text: button.text, request_poll: type === undefined ? {} : { type } };
}

function replyRows(keyboard: unknown): StoredReplyButton[][] | string {
  if (!Array.isArray(keyboard) || keyboard.length === 0) return 'field "keyboard" must be a non-empty Array of button rows';
  let count = 0;
  const rows: StoredReplyButton[][] = [];
  for (const [r, row] of keyboard.entries()) {
    if (!Array.isArray(row)) return `keyboard row ${r} must be an Array of buttons`;
    if (row.length === 0) return `keyboard row ${r} is empty`;
    if (row.length > maxReplyButtonsPerRow) return `keyboard row ${r} has more than ${maxReplyButtonsPerRow} buttons`;
    count += row.length;
    if (count > maxButtons) return `REPLY_MARKUP_TOO_LONG: a keyboard has at most ${maxButtons} buttons`;
    const kept: StoredReplyButton[] = [];
    for (const [b, button] of row.entries()) {
      const read = replyButton(button, `${r}.${b}`);
      if (typeof read === 'string') return read;
      kept.push(read);
    }
    rows.push(kept);
  }
  return rows;
}

function replyKeyboard(markup: Json, selective: boolean): StoredReplyMarkup | string {
  const keyboard = replyRows(markup.keyboard);
  if (typeof keyboard === 'string') return keyboard;
  const flags: Record<string, boolean> = {};
  for (const name of ['is_persistent', 'resize_keyboard', 'one_time_keyboard']) {
    const value = booleanField(markup, name);
    if (typeof value === 'string') return value;
    flags[name] = value;
  }
  const placeholder = placeholderField(markup);
  if (typeof placeholder === 'string') return placeholder;
  return {
    kind: 'keyboard',
    keyboard,
    is_persistent: flags.is_persistent!,
    resize_keyboard: flags.resize_keyboard!,
    one_time_keyboard: flags.one_time_keyboard!,
    ...placeholder,
    selective,
  };
}

/** The shape the schema states for an inline button (its action rules are keyboard.ts's). */
function inlineButtonShape(button: unknown, where: string): string | undefined {
  if (!isObject(button)) return `inline keyboard button ${where} must be an InlineKeyboardButton object`;
  if (!isText(button.text, maxInlineTextLength)) return `text of button ${where} must be 1 to ${maxInlineTextLength} characters`;
  if (button.callback_data !== undefined && !isText(button.callback_data, 64))
    return `BUTTON_DATA_INVALID: callback_data of button ${where} must be 1 to 64 bytes`;
  if (button.url !== undefined && !isText(button.url, 2048)) return `BUTTON_URL_INVALID: url of button ${where} is not a URL`;
  return undefined;
}

function inlineKeyboard(markup: Json): StoredKeyboard | string {
  const rows = markup.inline_keyboard;
  if (!Array.isArray(rows) || rows.length === 0) return 'field "inline_keyboard" must be a non-empty Array of button rows';
  if (rows.length > maxInlineRows) return `an inline keyboard has at most ${maxInlineRows} rows`;
  for (const [r, row] of rows.entries()) {
    if (!Array.isArray(row)) return `inline keyboard row ${r} must be an Array of buttons`;
    for (const [b, button] of row.entries()) {
      const wrong = inlineButtonShape(button, `${r}.${b}`);
      if (wrong !== undefined) return wrong;
    }
  }
  return storedKeyboard({ inline_keyboard: rows as Json[][] });
}

/** The markup to keep, or the reason it is refused (Telegram's wording after "Bad Request: "). */
export function readReplyMarkup(markup: unknown): ReadMarkup | string {
  if (!isObject(markup)) return 'object expected as reply markup';
  const given = kinds.filter((k) => markup[k] !== undefined);
  if (given.length === 0) return `can't parse reply keyboard markup JSON object: it needs one of ${kinds.join(', ')}`;
  if (given.length > 1) return `can't parse reply keyboard markup JSON object: ${given.join(' and ')} can't be used together`;
  if (given[0] === 'inline_keyboard') {
    const inline = inlineKeyboard(markup);
    return typeof inline === 'string' ? inline : { inline };
  }
  const selective = booleanField(markup, 'selective');
  if (typeof selective === 'string') return selective;
  if (given[0] === 'keyboard') {
    const reply = replyKeyboard(markup, selective);
    return typeof reply === 'string' ? reply : { reply };
  }
  if (given[0] === 'remove_keyboard') {
    if (markup.remove_keyboard !== true) return 'field "remove_keyboard" must be true';
    return { reply: { kind: 'remove_keyboard', selective } };
  }
  if (markup.force_reply !== true) return 'field "force_reply" must be true';
  const placeholder = placeholderField(markup);
  if (typeof placeholder === 'string') return placeholder;
  return { reply: { kind: 'force_reply', ...placeholder, selective } };
}
