// The parse modes against Telegram's documented rules: text the user sees, entities in UTF-16 units, bad markup.
import { EntityParseError, formatText, UnsupportedParseMode } from './index.js';

const html: [string, string, object[]][] = [
  ['<b>bold</b> &amp; co', 'bold & co', [{ type: 'bold', offset: 0, length: 4 }]],
  [
    '<strong>a</strong><em>b</em><ins>c</ins><del>d</del>',
    'abcd',
    [
      { type: 'bold', offset: 0, length: 1 },
      { type: 'italic', offset: 1, length: 1 },
      { type: 'underline', offset: 2, length: 1 },
      { type: 'strikethrough', offset: 3, length: 1 },
    ],
  ],
  [
    '<span class="tg-spoiler">x</span><tg-spoiler>y</tg-spoiler>',
    'xy',
    [
      { type: 'spoiler', offset: 0, length: 1 },
      { type: 'spoiler', offset: 1, length: 1 },
    ],
  ],
  ['<a href="https://e.com/?a=1&amp;b=2">link</a>', 'link', [{ type: 'text_link', offset: 0, length: 4, url: 'https://e.com/?a=1&b=2' }]],
  ['<a href="tg://user?id=42">Ann</a>', 'Ann', [{ type: 'text_mention', offset: 0, length: 3, userId: 42 }]],
  ['<pre><code class="language-ts">let x</code></pre>', 'let x', [{ type: 'pre', offset: 0, length: 5, language: 'ts' }]],
  ['<code class="language-ts">x</code>', 'x', [{ type: 'code', offset: 0, length: 1 }]],
  [
    '<blockquote expandable>q</blockquote><blockquote>r</blockquote>',
    'qr',
    [
      { type: 'expandable_blockquote', offset: 0, length: 1 },
      { type: 'blockquote', offset: 1, length: 1 },
    ],
  ],
  ['😀<i>é&#128512;&#x41;&lt;&gt;&quot;</i>', '😀é😀A<>"', [{ type: 'italic', offset: 2, length: 7 }]],
  [
    '<b>a<i>b</i></b>',
    'ab',
    [
      { type: 'bold', offset: 0, length: 2 },
      { type: 'italic', offset: 1, length: 1 },
    ],
  ],
  ['a & b', 'a & b', []],
];

const badHtml: [string, string][] = [
  ['<foo>x</foo>', 'Unsupported start tag "foo" at byte offset 0'],
  ['é<foo>', 'Unsupported start tag "foo" at byte offset 2'],
  ['<b>x', 'Can\'t find end tag corresponding to start tag "b"'],
  ['<b>x</i>', 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'],
  ['x</b>', 'Unexpected end tag at byte offset 1'],
  ['<span>x</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'],
  ['<b', "Can't find end of tag at byte offset 0"],
];

const v2: [string, string, object[]][] = [
  [
    '*bold* _it_ __u__ ~s~ ||sp||',
    'bold it u s sp',
    [
      { type: 'bold', offset: 0, length: 4 },
      { type: 'italic', offset: 5, length: 2 },
      { type: 'underline', offset: 8, length: 1 },
      { type: 'strikethrough', offset: 10, length: 1 },
      { type: 'spoiler', offset: 12, length: 2 },
    ],
  ],
  ['Hi\\. 1\\+1\\=2\\!', 'Hi. 1+1=2!', []],
  ['[site](https://e.com/a\\)b)', 'site', [{ type: 'text_link', offset: 0, length: 4, url: 'https://e.com/a)b' }]],
  ['[Ann](tg://user?id=7)', 'Ann', [{ type: 'text_mention', offset: 0, length: 3, userId: 7 }]],
  [
    '`a\\`b` ```py\nx = 1\n```',
    'a`b x = 1\n',
    [
      { type: 'code', offset: 0, length: 3 },
      { type: 'pre', offset: 4, length: 6, language: 'py' },
    ],
  ],
  [
    '*bold _both_*',
    'bold both',
    [
      { type: 'bold', offset: 0, length: 9 },
      { type: 'italic', offset: 5, length: 4 },
    ],
  ],
  ['>one\n>two\nafter', 'one\ntwo\nafter', [{ type: 'blockquote', offset: 0, length: 7 }]],
  ['**>hidden\n>more||', 'hidden\nmore', [{ type: 'expandable_blockquote', offset: 0, length: 11 }]],
  ['😀*x*', '😀x', [{ type: 'bold', offset: 2, length: 1 }]],
];

const badV2: [string, string][] = [
  ['Hello.', "Character '.' is reserved and must be escaped with the preceding '\\'"],
  ['a-b', "Character '-' is reserved and must be escaped with the preceding '\\'"],
  ['é*open', "Can't find end of the entity starting at byte offset 2"],
  ['`code', "Can't find end of the entity starting at byte offset 0"],
  ['[x](http://e.com', "Can't find end of the entity starting at byte offset 0"],
];

const legacy: [string, string, object[]][] = [
  [
    '*b* _i_ `c` [t](https://e.com)',
    'b i c t',
    [
      { type: 'bold', offset: 0, length: 1 },
      { type: 'italic', offset: 2, length: 1 },
      { type: 'code', offset: 4, length: 1 },
      { type: 'text_link', offset: 6, length: 1, url: 'https://e.com' },
    ],
  ],
  ['```js\nx()```', 'x()', [{ type: 'pre', offset: 0, length: 3, language: 'js' }]],
  ['a.b - c! snake\\_case', 'a.b - c! snake_case', []],
];

test.each(html)('HTML %p', (source, text, entities) => {
  expect(formatText(source, 'HTML', undefined)).toEqual({ text, entities });
});

test.each(badHtml)('bad HTML %p', (source, reason) => {
  expect(() => formatText(source, 'HTML', undefined)).toThrow(new EntityParseError(reason));
});

test.each(v2)('MarkdownV2 %p', (source, text, entities) => {
  expect(formatText(source, 'MarkdownV2', undefined)).toEqual({ text, entities });
});

test.each(badV2)('bad MarkdownV2 %p', (source, reason) => {
  expect(() => formatText(source, 'MarkdownV2', undefined)).toThrow(new EntityParseError(reason));
});

test.each(legacy)('Markdown %p', (source, text, entities) => {
  expect(formatText(source, 'Markdown', undefined)).toEqual({ text, entities });
});

test('legacy Markdown: an unclosed marker is refused', () => {
  expect(() => formatText('a *b', 'Markdown', undefined)).toThrow(
    new EntityParseError("Can't find end of the entity starting at byte offset 2"),
  );
});

test('explicit entities: kept types clipped to the text, user and url carried, others dropped', () => {
  const got = formatText('hello world', undefined, [
    { type: 'mention', offset: 0, length: 5 },
    { type: 'text_mention', offset: 6, length: 9, user: { id: 5 } },
    { type: 'bold', offset: 0, length: 5 },
    { type: 'pre', offset: 0, length: 1, language: 'c' },
  ]);
  expect(got).toEqual({
    text: 'hello world',
    entities: [
      { type: 'bold', offset: 0, length: 5 },
      { type: 'pre', offset: 0, length: 1, language: 'c' },
      { type: 'text_mention', offset: 6, length: 5, userId: 5 },
    ],
  });
  expect(() => formatText('x', undefined, [{ type: 'text_link', offset: 0, length: 1 }])).toThrow(EntityParseError);
});

test('an unknown parse_mode is refused; parse_mode is case-insensitive', () => {
  expect(() => formatText('x', 'BBCode', undefined)).toThrow(UnsupportedParseMode);
  expect(formatText('<b>x</b>', 'html', undefined).entities).toHaveLength(1);
});
