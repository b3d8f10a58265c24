// Telegram's legacy Markdown parse mode: *bold*, _italic_, `code`, ```pre``` and [text](url), no nesting;
// a backslash escapes only the markup characters _ * ` [.
import { byteOffset, EntityParseError, type Formatted, type FormattingEntity } from './entity.js';

const markers: Record<string, 'bold' | 'italic'> = { '*': 'bold', _: 'italic' };

function unclosed(source: string, at: number): EntityParseError {
  return new EntityParseError(`Can't find end of the entity starting at byte offset ${byteOffset(source, at)}`);
}

export function parseMarkdown(source: string): Formatted {
  let text = '';
  const entities: FormattingEntity[] = [];
  let at = 0;
  while (at < source.length) {
    const ch = source[at]!;
    if (ch === '\\' && '_*`['.includes(source[at + 1] ?? ' ')) {
      text += source[at + 1];
      at += 2;
      continue;
    }
    const type = markers[ch];
    if (type) {
      const end = source.indexOf(ch, at + 1);
      if (end < 0) throw unclosed(source, at);
      const inner = source.slice(at + 1, end);
      if (inner) entities.push({ type, offset: text.length, length: inner.length });
      text += inner;
      at = end + 1;
      continue;
    }
    if (ch === '`') {
      const fence = source.startsWith('```', at) ? '```' : '`';
      const end = source.indexOf(fence, at + fence.length);
      if (end < 0) throw unclosed(source, at);
      let inner = source.slice(at + fence.length, end);
      const entity: FormattingEntity = { type: fence === '```' ? 'pre' : 'code', offset: text.length, length: 0 };
      const header = fence === '```' ? /^([^\s`]+)\n/.exec(inner) : null;
      if (header) {
        entity.language = header[1]!;
        inner = inner.slice(header[0].length);
      }
      entity.length = inner.length;
      if (inner) entities.push(entity);
      text += inner;
      at = end + fence.length;
      continue;
    }
    if (ch === '[') {
      const close = source.indexOf(']', at + 1);
      if (close < 0) throw unclosed(source, at);
      const label = source.slice(at + 1, close);
      let url = '';
      let next = close + 1;
      if (source[next] === '(') {
        const end = source.indexOf(')', next);
        if (end < 0) throw unclosed(source, at);
        url = source.slice(next + 1, end);
        next = end + 1;
      }
      const user = /^tg:\/\/user\?id=(\d{1,15})$/.exec(url);
      if (label && user) entities.push({ type: 'text_mention', offset: text.length, length: label.length, userId: Number(user[1]) });
      else if (label && url) entities.push({ type: 'text_link', offset: text.length, length: label.length, url });
      text += label;
      at = next;
      continue;
    }
    text += ch;
    at += 1;
  }
  return { text, entities };
}
