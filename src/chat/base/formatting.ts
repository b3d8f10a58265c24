// The formatting of a message's text (bold, links, code, quotes, ...), as stored on the message and as chat clients
// receive it. Offsets and lengths count UTF-16 code units (JavaScript string indices), as Telegram's entities do.
// Bots write it (the Bot API's parse_mode and entities); the chat's own sends carry none.

export type FormattingType =
  | 'bold'
  | 'italic'
  | 'underline'
  | 'strikethrough'
  | 'spoiler'
  | 'code'
  | 'pre'
  | 'text_link'
  | 'text_mention'
  | 'blockquote'
  | 'expandable_blockquote';

/** The user a text_mention names, as the bot saw it when it sent the message (Telegram's User of the entity). */
export interface MentionedUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

/** A span in the chat's message view. */
export interface FormattingView {
  type: FormattingType;
  offset: number;
  length: number;
  /** text_link: the target. */
  url?: string;
  /** pre: the code's language. */
  language?: string;
  /** text_mention: the account named. */
  accountId?: string;
}

/** One span as the messages table keeps it (column formatting): a text_mention also keeps the user the bot named. */
export interface StoredFormatting extends FormattingView {
  user?: MentionedUser;
}

export function formattingViews(stored: StoredFormatting[]): FormattingView[] {
  return stored.map(({ user: _bots, ...span }) => span);
}
