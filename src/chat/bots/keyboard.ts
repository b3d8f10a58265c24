// Inline keyboards: checked and reduced to what is stored (text with callback_data or url), and shown to chat
// clients in camelCase.
export interface StoredButton {
  text: string;
  callback_data?: string;
  url?: string;
}

export type StoredKeyboard = StoredButton[][];

export interface ChatButton {
  text: string;
  callbackData?: string;
  url?: string;
}

const maxButtonsPerRow = 8;
const maxCallbackBytes = 64;

/** The keyboard to store, or the reason it is refused (Telegram's wording after "Bad Request: "). */
export function storedKeyboard(markup: { inline_keyboard: Array<Array<Record<string, unknown>>> }): StoredKeyboard | string {
  const rows: StoredKeyboard = [];
  for (const [r, row] of markup.inline_keyboard.entries()) {
    if (row.length === 0) return `inline keyboard row ${r} is empty`;
    if (row.length > maxButtonsPerRow) return `inline keyboard row ${r} has more than ${maxButtonsPerRow} buttons`;
    const stored: StoredButton[] = [];
    for (const [b, button] of row.entries()) {
      const text = button.text;
      const data = button.callback_data;
      const url = button.url;
      if (typeof text !== 'string') return `button ${r}.${b} has no text`;
      if ((data === undefined) === (url === undefined)) return `button ${r}.${b} must have exactly one of callback_data and url`;
      if (typeof data === 'string') {
        if (Buffer.byteLength(data, 'utf8') > maxCallbackBytes)
          return `BUTTON_DATA_INVALID: callback_data of button ${r}.${b} is longer than ${maxCallbackBytes} bytes`;
        stored.push({ text, callback_data: data });
      } else if (typeof url === 'string') {
        if (!/^https?:\/\//i.test(url)) return `BUTTON_URL_INVALID: url of button ${r}.${b} must be http or https`;
        stored.push({ text, url });
      }
    }
    rows.push(stored);
  }
  return rows;
}

export function chatKeyboard(keyboard: StoredKeyboard): ChatButton[][] {
  return keyboard.map((row) =>
    row.map((b) => (b.callback_data !== undefined ? { text: b.text, callbackData: b.callback_data } : { text: b.text, url: b.url! })),
  );
}

export function hasButton(keyboard: StoredKeyboard | null, data: string): boolean {
  return keyboard?.some((row) => row.some((b) => b.callback_data === data)) ?? false;
}
