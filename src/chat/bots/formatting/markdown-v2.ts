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

export function parseMarkdownV2(source: string): Formatted {
  let text = '';
  const entities: FormattingEntity[] = [];
  const stack: Open[] = [];
  let quote: { start: number; expandable: boolean } | null = null;
  const push = (e: FormattingEntity) => {
    if (e.length > 0) entities.push(e);
  };
  const closeQuote = () => {
    if (!quote) return;
    const end = text.endsWith('\n') ? text.length - 1 : text.length;
    push({ type: quote.expandable ? 'expandable_blockquote' : 'blockquote', offset: quote.start, length: end - quote.start });
    quote = null;
  };
  let at = 0;
  while (at < source.length) {
    const lineStart = at === 0 || source[at - 1] === '\n';
    if (lineStart) {
      if (source.startsWith('**>', at) && !quote) {
        quote = { start: text.length, expandable: true };
        at += 3;
        continue;
      }
      if (source[at] === '>') {
        if (!quote) quote = { start: text.length, expandable: false };
        at += 1;
        continue;
      }
      closeQuote();
    }
    const ch = source[at]!;
    const top = stack[stack.length - 1];
    if (ch === '\\') {
      const next = source.codePointAt(at + 1);
      if (next !== undefined && next >= 1 && next <= 126) {
        text += source[at + 1];
        at += 2;
        continue;
      }
      throw reservedError('\\');
    }
    if (ch === '`') {
      if (source.startsWith('```', at)) {
        const newline = source.indexOf('\n', at + 3);
        const header = newline < 0 ? '' : source.slice(at + 3, newline);
        const hasLanguage = newline >= 0 && /^[^\s`]+$/.test(header);
        const body = readVerbatim(source, hasLanguage ? newline + 1 : at + 3, '```', at);
        const entity: FormattingEntity = { type: 'pre', offset: text.length, length: body.text.length };
        if (hasLanguage) entity.language = header;
        push(entity);
        text += body.text;
        at = body.end;
        continue;
      }
      const body = readVerbatim(source, at + 1, '`', at);
      push({ type: 'code', offset: text.length, length: body.text.length });
      text += body.text;
      at = body.end;
      continue;
    }
    if (ch === '|' && source[at + 1] === '|') {
      // "||" closing an expandable quote's last line ends the quote.
      if (quote?.expandable && (at + 2 === source.length || source[at + 2] === '\n') && top?.type !== 'spoiler') {
        at += 2;
        closeQuote();
        continue;
      }
      at = toggle('spoiler', at, 2);
      continue;
    }
    if (ch === '_' && source[at + 1] === '_' && top?.type !== 'italic') {
      at = toggle('underline', at, 2);
      continue;
    }
    const single: Record<string, FormattingType> = { '*': 'bold', _: 'italic', '~': 'strikethrough' };
    if (single[ch]) {
      at = toggle(single[ch], at, 1);
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
      if (source[at] !== '(') throw unclosed(source, top.at);
      let url = '';
      at += 1;
      while (at < source.length && source[at] !== ')') {
        if (source[at] === '\\' && at + 1 < source.length) at += 1;
        url += source[at];
        at += 1;
      }
      if (at >= source.length) throw unclosed(source, top.at);
      at += 1;
      const user = /^tg:\/\/user\?id=(\d{1,15})$/.exec(url);
      const length = text.length - top.start;
      if (user) push({ type: 'text_mention', offset: top.start, length, userId: Number(user[1]) });
      else if (url) push({ type: 'text_link', offset: top.start, length, url });
      continue;
    }
    if (reserved.has(ch)) throw reservedError(ch);
    text += ch;
    at += 1;
  }
  closeQuote();
  const left = stack.pop();
  if (left) throw unclosed(source, left.at);
  return { text, entities: entities.sort((a, b) => a.offset - b.offset || b.length - a.length) };

  function toggle(type: FormattingType, from: number, width: number): number {
    const top = stack[stack.length - 1];
    if (top?.type === type) {
      stack.pop();
      push({ type, offset: top.start, length: text.length - top.start });
    } else {
      stack.push({ type, start: text.length, at: from });
    }
    return from + width;
  }
}
