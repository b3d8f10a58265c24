// A bot's text or caption as the user will see it: parse_mode markup or explicit entities turned into plain text and
// formatting spans (../formatting), then Telegram's limits on the result: the markup's own characters do not count.
// A send without parse_mode or entities skips the parsers entirely.
import type { FormattingEntity, TelegramEntityInput } from '../formatting/index.js';
import { EntityParseError, formatText, UnsupportedParseMode } from '../formatting/index.js';
import { botApiErrors } from './errors.js';

export type { TelegramEntityInput } from '../formatting/index.js';

/** What is limited: a message's text (4096, never empty) or a file's caption (1024, may be empty). */
export type TextKind = 'text' | 'caption';

const limits: Record<TextKind, { max: number; tooLong: string }> = {
  text: { max: 4096, tooLong: 'message is too long' },
  caption: { max: 1024, tooLong: 'message caption is too long' },
};

export interface FormattedText {
  text: string;
  /** The spans, or null when the text has none. */
  formatting: FormattingEntity[] | null;
}

/** The parse alone, for texts with limits of their own (a poll's question and explanation). */
export function parsedText(source: string, parseMode: string | undefined, entities: TelegramEntityInput[] | undefined): FormattedText {
  try {
    const { text, entities: spans } = formatText(source, parseMode, entities);
    return { text, formatting: spans.length > 0 ? spans : null };
  } catch (err) {
    if (err instanceof EntityParseError) throw botApiErrors.badRequest(`can't parse entities: ${err.message}`);
    if (err instanceof UnsupportedParseMode) throw botApiErrors.badRequest('unsupported parse_mode');
    throw err;
  }
}

/** The text to store, or Telegram's 400 for bad markup, an unknown parse_mode, an empty or too long result. */
export function formattedText(
  kind: TextKind,
  source: string,
  parseMode: string | undefined,
  entities: TelegramEntityInput[] | undefined,
): FormattedText {
  const result =
    parseMode || (entities && entities.length > 0) ? parsedText(source, parseMode, entities) : { text: source, formatting: null };
  if (result.text.length > limits[kind].max) throw botApiErrors.badRequest(limits[kind].tooLong);
  if (kind === 'text' && result.text.trim() === '') throw botApiErrors.badRequest('message text is empty');
  return result;
}
