// Telegram's HTML parse mode: the supported tags become entities, character references are decoded.
import { byteOffset, EntityParseError, type Formatted, type FormattingEntity, type FormattingType } from './entity.js';

const simpleTags: Record<string, FormattingType> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

interface Open {
  tag: string;
  start: number;
  entity: FormattingEntity | null;
}

function decodeReference(source: string, at: number): { text: string; end: number } | null {
  const m = /^&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/.exec(source.slice(at, at + 12));
  if (!m) return null;
  const body = m[1]!;
  let text: string | undefined;
  if (body.startsWith('#x')) text = safeCodePoint(parseInt(body.slice(2), 16));
  else if (body.startsWith('#')) text = safeCodePoint(parseInt(body.slice(1), 10));
  else text = named[body];
  return text === undefined ? null : { text, end: at + m[0].length };
}

function safeCodePoint(n: number): string | undefined {
  return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : undefined;
}

function parseAttributes(source: string, from: number, tagStart: number): { attrs: Map<string, string>; end: number } {
  const attrs = new Map<string, string>();
  const re = /\s*([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?|\s*(>)/y;
  let at = from;
  for (;;) {
    re.lastIndex = at;
    const m = re.exec(source);
    if (!m) throw new EntityParseError(`Can't find end of tag at byte offset ${byteOffset(source, tagStart)}`);
    at = re.lastIndex;
    if (m[5]) return { attrs, end: at };
    attrs.set(m[1]!.toLowerCase(), decodeAll(m[2] ?? m[3] ?? m[4] ?? ''));
  }
}

function decodeAll(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, _b, i: number) => {
    return decodeReference(value, i)?.text ?? whole;
  });
}

function openEntity(tag: string, attrs: Map<string, string>, source: string, at: number): FormattingEntity | null {
  const start = { offset: 0, length: 0 };
  if (tag === 'span') {
    if (attrs.get('class') !== 'tg-spoiler')
      throw new EntityParseError(`Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(source, at)}`);
    return { type: 'spoiler', ...start };
  }
  if (tag === 'a') {
    const href = attrs.get('href') ?? '';
    const user = /^tg:\/\/user\?id=(\d{1,15})$/.exec(href);
    if (user) return { type: 'text_mention', ...start, userId: Number(user[1]) };
    return href ? { type: 'text_link', ...start, url: href } : null;
  }
  if (tag === 'blockquote' && attrs.has('expandable')) return { type: 'expandable_blockquote', ...start };
  if (tag === 'code') {
    const language = /^language-(.+)$/.exec(attrs.get('class') ?? '')?.[1];
    return language ? { type: 'code', ...start, language } : { type: 'code', ...start };
  }
  return { type: simpleTags[tag]!, ...start };
}

export function parseHtml(source: string): Formatted {
  let text = '';
  const entities: FormattingEntity[] = [];
  const stack: Open[] = [];
  let at = 0;
  while (at < source.length) {
    const ch = source[at]!;
    if (ch === '&') {
      const ref = decodeReference(source, at);
      text += ref ? ref.text : '&';
      at = ref ? ref.end : at + 1;
      continue;
    }
    if (ch !== '<') {
      text += ch;
      at += 1;
      continue;
    }
    const tagStart = at;
    const closing = source[at + 1] === '/';
    const nameMatch = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(source.slice(at + (closing ? 2 : 1)));
    if (!nameMatch) throw new EntityParseError(`Unsupported start tag "" at byte offset ${byteOffset(source, tagStart)}`);
    const tag = nameMatch[0].toLowerCase();
    at += (closing ? 2 : 1) + nameMatch[0].length;
    if (closing) {
      const end = source.indexOf('>', at);
      if (end < 0 || source.slice(at, end).trim() !== '')
        throw new EntityParseError(`Can't find end tag corresponding to start tag "${tag}"`);
      const open = stack.pop();
      if (!open) throw new EntityParseError(`Unexpected end tag at byte offset ${byteOffset(source, tagStart)}`);
      if (open.tag !== tag)
        throw new EntityParseError(
          `Unmatched end tag at byte offset ${byteOffset(source, tagStart)}, expected "</${open.tag}>", found "</${tag}>"`,
        );
      if (open.entity && text.length > open.start) {
        open.entity.offset = open.start;
        open.entity.length = text.length - open.start;
        entities.push(open.entity);
      }
      at = end + 1;
      continue;
    }
    if (!(tag in simpleTags) && tag !== 'span' && tag !== 'a')
      throw new EntityParseError(`Unsupported start tag "${tag}" at byte offset ${byteOffset(source, tagStart)}`);
    const { attrs, end } = parseAttributes(source, at, tagStart);
    at = end;
    const entity = openEntity(tag, attrs, source, tagStart);
    // <pre><code class="language-x"> is one pre entity with a language, as Telegram reads it.
    const parent = stack[stack.length - 1];
    if (tag === 'code' && parent?.tag === 'pre' && parent.entity && parent.start === text.length && entity?.language) {
      parent.entity.language = entity.language;
      stack.push({ tag, start: text.length, entity: null });
      continue;
    }
    if (entity?.language) delete entity.language;
    stack.push({ tag, start: text.length, entity });
  }
  const unclosed = stack.pop();
  if (unclosed) throw new EntityParseError(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);
  return { text, entities: entities.sort((a, b) => a.offset - b.offset || b.length - a.length) };
}
