// Inline keyboards: checked and reduced to what is stored (text with one action: callback_data, url, copy_text or a
// switch_inline_query kind), and shown to chat clients in camelCase.
export interface StoredButton {
  text: string;
  callback_data?: string;
  url?: string;
  copy_text?: { text: string };
  switch_inline_query?: string;
  switch_inline_query_current_chat?: string;
  switch_inline_query_chosen_chat?: Record<string, unknown>;
}

export type StoredKeyboard = StoredButton[][];

export interface ChatButton {
  text: string;
  callbackData?: string;
  url?: string;
  copyText?: string;
  switchInlineQuery?: string;
  switchInlineQueryCurrentChat?: string;
  switchInlineQueryChosenChat?: Record<string, unknown>;
}

const maxButtonsPerRow = 8;
const maxCallbackBytes = 64;

// Button kinds Telegram has and this platform does not: refused with the reason, so the bot's author knows why.
const refusedKinds: Record<string, string> = {
  login_url: 'the platform has no Telegram Login',
  web_app: 'the platform has no Web Apps',
  callback_game: 'the platform has no games',
  pay: 'the platform has no payments',
};

const actions = [
  'callback_data',
  'url',
  'copy_text',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
] as const;
const maxCopyTextLength = 256;

/** The stored button, or the reason it is refused. */
function storedButton(button: Record<string, unknown>, where: string): StoredButton | string {
  const text = button.text;
  if (typeof text !== 'string') return `button ${where} has no text`;
  for (const [kind, reason] of Object.entries(refusedKinds))
    if (button[kind] !== undefined) return `button ${where}: ${kind} buttons are not supported: ${reason}`;
  const given = actions.filter((a) => button[a] !== undefined);
  if (given.length !== 1) return `button ${where} must have exactly one of ${actions.join(', ')}`;
  const data = button.callback_data;
  if (typeof data === 'string') {
    if (Buffer.byteLength(data, 'utf8') > maxCallbackBytes)
      return `BUTTON_DATA_INVALID: callback_data of button ${where} is longer than ${maxCallbackBytes} bytes`;
    return { text, callback_data: data };
  }
  const url = button.url;
  if (typeof url === 'string') {
    if (!/^https?:\/\//i.test(url)) return `BUTTON_URL_INVALID: url of button ${where} must be http or https`;
    return { text, url };
  }
  const copy = button.copy_text;
  if (copy !== undefined) {
    const copied = typeof copy === 'object' && copy !== null ? (copy as Record<string, unknown>).text : undefined;
    if (typeof copied !== 'string' || copied.length === 0 || copied.length > maxCopyTextLength)
      return `copy_text of button ${where} must be an object with a text of 1 to ${maxCopyTextLength} characters`;
    return { text, copy_text: { text: copied } };
  }
  for (const kind of ['switch_inline_query', 'switch_inline_query_current_chat'] as const) {
    const query = button[kind];
    if (query === undefined) continue;
    if (typeof query !== 'string') return `${kind} of button ${where} must be a string`;
    return { text, [kind]: query };
  }
  const chosen = button.switch_inline_query_chosen_chat;
  if (typeof chosen !== 'object' || chosen === null || Array.isArray(chosen))
    return `switch_inline_query_chosen_chat of button ${where} must be an object`;
  return { text, switch_inline_query_chosen_chat: chosen as Record<string, unknown> };
}

/** The keyboard to store, or the reason it is refused (Telegram's wording after "Bad Request: "). */
export function storedKeyboard(markup: { inline_keyboard: Array<Array<Record<string, unknown>>> }): StoredKeyboard | string {
  const rows: StoredKeyboard = [];
  for (const [r, row] of markup.inline_keyboard.entries()) {
    if (row.length === 0) return `inline keyboard row ${r} is empty`;
    if (row.length > maxButtonsPerRow) return `inline keyboard row ${r} has more than ${maxButtonsPerRow} buttons`;
    const stored: StoredButton[] = [];
    for (const [b, button] of row.entries()) {
      const kept = storedButton(button, `${r}.${b}`);
      if (typeof kept === 'string') return kept;
      stored.push(kept);
    }
    rows.push(stored);
  }
  return rows;
}

export function chatKeyboard(keyboard: StoredKeyboard): ChatButton[][] {
  return keyboard.map((row) => row.map(chatButton));
}

function chatButton(b: StoredButton): ChatButton {
  if (b.callback_data !== undefined) return { text: b.text, callbackData: b.callback_data };
  if (b.copy_text !== undefined) return { text: b.text, copyText: b.copy_text.text };
  if (b.switch_inline_query !== undefined) return { text: b.text, switchInlineQuery: b.switch_inline_query };
  if (b.switch_inline_query_current_chat !== undefined)
    return { text: b.text, switchInlineQueryCurrentChat: b.switch_inline_query_current_chat };
  if (b.switch_inline_query_chosen_chat !== undefined)
    return { text: b.text, switchInlineQueryChosenChat: b.switch_inline_query_chosen_chat };
  return { text: b.text, url: b.url! };
}

export function hasButton(keyboard: StoredKeyboard | null, data: string): boolean {
  return keyboard?.some((row) => row.some((b) => b.callback_data === data)) ?? false;
}
