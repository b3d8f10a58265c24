// One entry for a bot's text or caption: parse_mode markup or explicit entities into plain text and entities.
import { EntityParseError, type Formatted, type FormattingEntity, type FormattingType } from './entity.js';
import { parseHtml } from './html.js';
import { parseMarkdown } from './markdown.js';
import { parseMarkdownV2 } from './markdown-v2.js';

export { EntityParseError, type Formatted, type FormattingEntity } from './entity.js';

const kinds = new Set<FormattingType>([
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'spoiler',
  'code',
  'pre',
  'text_link',
  'text_mention',
  'blockquote',
  'expandable_blockquote',
]);

/** Telegram's explicit entities (snake_case, user as an object) checked against the text they describe. */
export interface TelegramEntityInput {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  user?: { id: number };
}

/**
 * parse_mode wins over entities when both are given, as in Telegram; an unknown parse_mode is Telegram's
 * "Unsupported parse_mode". Entity types the chat does not render (mention, hashtag, ...) are dropped.
 */
export function formatText(source: string, parseMode: string | undefined, entities: TelegramEntityInput[] | undefined): Formatted {
  if (parseMode) {
    const mode = parseMode.toLowerCase();
    if (mode === 'html') return parseHtml(source);
    if (mode === 'markdownv2') return parseMarkdownV2(source);
    if (mode === 'markdown') return parseMarkdown(source);
    throw new UnsupportedParseMode();
  }
  return { text: source, entities: explicitEntities(source, entities ?? []) };
}

export class UnsupportedParseMode extends Error {
  constructor() {
    super('Unsupported parse_mode');
  }
}

function explicitEntities(text: string, given: TelegramEntityInput[]): FormattingEntity[] {
  const kept: FormattingEntity[] = [];
  for (const e of given) {
    if (!kinds.has(e.type as FormattingType)) continue;
    const start = Math.max(0, e.offset);
    const end = Math.min(text.length, e.offset + e.length);
    if (end <= start) continue;
    const entity: FormattingEntity = { type: e.type as FormattingType, offset: start, length: end - start };
    if (e.type === 'text_link') {
      if (!e.url) throw new EntityParseError(`Wrong URL for a text link entity`);
      entity.url = e.url;
    }
    if (e.type === 'text_mention') {
      if (!e.user?.id) throw new EntityParseError(`User not specified for a text mention entity`);
      entity.userId = e.user.id;
    }
    if (e.type === 'pre' && e.language) entity.language = e.language;
    kept.push(entity);
  }
  return kept.sort((a, b) => a.offset - b.offset || b.length - a.length);
}
