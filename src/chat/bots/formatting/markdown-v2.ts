// Telegram's MarkdownV2 parse mode: every reserved character outside an entity's markup needs a backslash.
import { byteOffset, EntityParseError, type Formatted, type FormattingEntity, type FormattingType } from './entity.js';

const reserved = new Set('_*[]()~`>#+-=|{}.!');

interface Open {
  type: FormattingType;
  start: number;
  at: number;
}

function reservedError(ch: string): EntityParseError {
  return new EntityParseError(`Character '${ch}' is reserved and must be escaped with the preceding '\\'`);
}

function unclosed(source: string, at: number): EntityParseError {
  return new EntityParseError(`Can't find end of the entity starting at byte offset ${byteOffset(source, at)}`);
}

/** Reads code or pre content, where only ` and \ are escaped; returns the text and the index after the close. */
function readVerbatim(source: string, from: number, fence: string, openAt: number): { text: string; end: number } {
  let text = '';
  let at = from;
  while (at < source.length) {
    if (source[at] === '\\' && at + 1 < source.length) {
      text += source[at + 1];
      at += 2;
      continue;
    }
    if (source.startsWith(fence, at)) return { text, end: at + fence.length };
    text += source[at];
    at += 1;
  }
  throw unclosed(source, openAt);
}

/** `code` or ```pre```, with an optional language on the opening fence's line. */
function readCode(source: string, at: number, offset: number): { entity: FormattingEntity; text: string; end: number } {
  if (!source.startsWith('```', at)) {
    const body = readVerbatim(source, at + 1, '`', at);
    return { entity: { type: 'code', offset, length: body.text.length }, ...body };
  }
  const newline = source.indexOf('\n', at + 3);
  const header = newline < 0 ? '' : source.slice(at + 3, newline);
  const hasLanguage = newline >= 0 && /^[^\s`]+$/.test(header);
  const body = readVerbatim(source, hasLanguage ? newline + 1 : at + 3, '```', at);
  const entity: FormattingEntity = { type: 'pre', offset, length: body.text.length };
  if (hasLanguage) entity.language = header;
  return { entity, ...body };
}

/** The (url) after a link's ], where ) and \ are escaped. */
function readUrl(source: string, at: number, openAt: number): { url: string; end: number } {
  if (source[at] !== '(') throw unclosed(source, openAt);
  let url = '';
  let i = at + 1;
  while (i < source.length && source[i] !== ')') {
    if (source[i] === '\\' && i + 1 < source.length) i += 1;
    url += source[i];
    i += 1;
  }
  if (i >= source.length) throw unclosed(source, openAt);
  return { url, end: i + 1 };
}

function quoteMarker(source: string, at: number): { width: number; expandable: boolean } | null {
  if (source.startsWith('**>', at)) return { width: 3, expandable: true };
  return source[at] === '>' ? { width: 1, expandable: false } : null;
}

const single: Record<string, FormattingType> = { '*': 'bold', _: 'italic', '~': 'strikethrough' };

/** The emphasis marker at a position: "||" spoiler, "__" underline (unless closing an italic), or one character. */
function markerAt(source: string, at: number, top: FormattingType | undefined): { type: FormattingType; width: number } | null {
  if (source.startsWith('||', at)) return { type: 'spoiler', width: 2 };
  if (source.startsWith('__', at) && top !== 'italic') return { type: 'underline', width: 2 };
  const type = single[source[at]!];
  return type ? { type, width: 1 } : null;
}

/** A link's target: tg://user?id= names a user (text_mention); an empty target makes no entity. */
function linkEntity(url: string, offset: number, length: number): FormattingEntity {
  const user = /^tg:\/\/user\?id=(\d{1,15})$/.exec(url);
  if (user) return { type: 'text_mention', offset, length, userId: Number(user[1]) };
  return url ? { type: 'text_link', offset, length, url } : { type: 'text_link', offset, length: 0 };
}

export function parseMarkdownV2(source: string): Formatted {
  let text = '';
  const entities: FormattingEntity[] = [];
  const stack: Open[] = [];
  let quote: { start: number; expandable: boolean } | null = null;
  const closeQuote = () => {
    if (!quote) return;
    const end = text.endsWith('\n') ? text.length - 1 : text.length;
    entities.push({ type: quote.expandable ? 'expandable_blockquote' : 'blockquote', offset: quote.start, length: end - quote.start });
    quote = null;
  };
  let at = 0;
  while (at < source.length) {
    if (at === 0 || source[at - 1] === '\n') {
      const marker = quoteMarker(source, at);
      if (marker) {
        quote ??= { start: text.length, expandable: marker.expandable };
        at += marker.width;
        continue;
      }
      closeQuote();
    }
    const ch = source[at]!;
    const top = stack[stack.length - 1];
    if (ch === '\\') {
      if (!(source.charCodeAt(at + 1) >= 1 && source.charCodeAt(at + 1) <= 126)) throw reservedError('\\');
      text += source[at + 1];
      at += 2;
      continue;
    }
    if (ch === '`') {
      const code = readCode(source, at, text.length);
      entities.push(code.entity);
      text += code.text;
      at = code.end;
      continue;
    }
    // "||" at the end of an expandable quote's last line ends the quote.
    if (quote?.expandable && source.startsWith('||', at) && /^\n?$/.test(source.slice(at + 2, at + 3)) && top?.type !== 'spoiler') {
      at += 2;
      closeQuote();
      continue;
    }
    const marker = markerAt(source, at, top?.type);
    if (marker) {
      at = toggle(marker.type, at, marker.width);
      continue;
    }
    if (ch === '[') {
      stack.push({ type: 'text_link', start: text.length, at });
      at += 1;
      continue;
    }
    if (ch === ']' && top?.type === 'text_link') {
      stack.pop();
      at += 1;
      const link = readUrl(source, at, top.at);
      at = link.end;
      entities.push(linkEntity(link.url, top.start, text.length - top.start));
      continue;
    }
    if (reserved.has(ch)) throw reservedError(ch);
    text += ch;
    at += 1;
  }
  closeQuote();
  const left = stack.pop();
  if (left) throw unclosed(source, left.at);
  return { text, entities: entities.filter((e) => e.length > 0).sort((a, b) => a.offset - b.offset || b.length - a.length) };

  function toggle(type: FormattingType, from: number, width: number): number {
    const top = stack[stack.length - 1];
    if (top?.type === type) {
      stack.pop();
      entities.push({ type, offset: top.start, length: text.length - top.start });
    } else {
      stack.push({ type, start: text.length, at: from });
    }
    return from + width;
  }
}
