// A bot's reply markup other than an inline keyboard (Telegram's ReplyKeyboardMarkup, ReplyKeyboardRemove and
// ForceReply), as stored on the message and as chat clients see it. Selective markup is stored with the accounts it
// applies to, resolved when the bot sent it, so every view and the member's current keyboard read the same list.

export interface StoredReplyButton {
  text: string;
  request_poll?: { type?: 'quiz' | 'regular' };
}

interface StoredAudience {
  selective: boolean;
  /** Selective markup only: the accounts it applies to. */
  recipients?: string[];
}

export type StoredReplyMarkup = StoredAudience &
  (
    | {
        kind: 'keyboard';
        keyboard: StoredReplyButton[][];
        is_persistent: boolean;
        resize_keyboard: boolean;
        one_time_keyboard: boolean;
        input_field_placeholder?: string;
      }
    | { kind: 'remove_keyboard' }
    | { kind: 'force_reply'; input_field_placeholder?: string }
  );

export type StoredReplyKeyboard = Extract<StoredReplyMarkup, { kind: 'keyboard' }>;

export interface ChatReplyButton {
  text: string;
  requestPoll?: { type?: 'quiz' | 'regular' };
}

interface ChatAudience {
  selective: boolean;
  recipients?: string[];
}

export type ChatReplyKeyboard = ChatAudience & {
  kind: 'keyboard';
  keyboard: ChatReplyButton[][];
  persistent: boolean;
  resize: boolean;
  oneTime: boolean;
  inputFieldPlaceholder?: string;
};

export type ChatReplyMarkup =
  ChatReplyKeyboard | (ChatAudience & { kind: 'removeKeyboard' }) | (ChatAudience & { kind: 'forceReply'; inputFieldPlaceholder?: string });

const audience = (m: StoredAudience): ChatAudience => ({
  selective: m.selective,
  ...(m.recipients !== undefined ? { recipients: m.recipients } : {}),
});

const placeholder = (text: string | undefined) => (text !== undefined ? { inputFieldPlaceholder: text } : {});

export function chatReplyKeyboard(m: StoredReplyKeyboard): ChatReplyKeyboard {
  return {
    kind: 'keyboard',
    keyboard: m.keyboard.map((row) =>
      row.map((b) => ({ text: b.text, ...(b.request_poll !== undefined ? { requestPoll: b.request_poll } : {}) })),
    ),
    persistent: m.is_persistent,
    resize: m.resize_keyboard,
    oneTime: m.one_time_keyboard,
    ...placeholder(m.input_field_placeholder),
    ...audience(m),
  };
}

export function chatReplyMarkup(m: StoredReplyMarkup): ChatReplyMarkup {
  if (m.kind === 'keyboard') return chatReplyKeyboard(m);
  if (m.kind === 'remove_keyboard') return { kind: 'removeKeyboard', ...audience(m) };
  return { kind: 'forceReply', ...placeholder(m.input_field_placeholder), ...audience(m) };
}

/** Whether the markup applies to the account: every member, or a selective markup's recipients. */
export const appliesTo = (m: StoredReplyMarkup, accountId: string): boolean => !m.selective || (m.recipients ?? []).includes(accountId);
