// docs/bots.md's table of Telegram methods matches what the server serves and refuses. After changing either, write
// the table anew with `UPDATE_DOCS=1 npm test -- test/integration/bots/methods-table.test.ts`.
import { readFileSync, writeFileSync } from 'node:fs';
import { botMethodsTable, tableEnd, tableStart } from '../../helpers/bot-methods-table.js';

const docsPath = new URL('../../../docs/bots.md', import.meta.url);
const documentPath = new URL('../../../generated/openapi/bot.json', import.meta.url).pathname;

/** The table as docs/bots.md has it, markers included; empty when the markers are missing. */
function writtenTable(): string {
  const docs = readFileSync(docsPath, 'utf8');
  const start = docs.indexOf(tableStart);
  const end = docs.indexOf(tableEnd);
  return start < 0 || end < start ? '' : docs.slice(start, end + tableEnd.length);
}

if (process.env.UPDATE_DOCS === '1') {
  const docs = readFileSync(docsPath, 'utf8');
  writeFileSync(docsPath, docs.replace(writtenTable(), botMethodsTable(documentPath)));
}

test('docs/bots.md lists every Bot API method the server serves or refuses, with the exact error', () => {
  expect(writtenTable()).toBe(botMethodsTable(documentPath));
});

test('the table names a served method once and a refused one with its reason', () => {
  const table = botMethodsTable(documentPath);
  expect(table.match(/^\| `sendMessage` \| served \(POST\) \|/gm)).toHaveLength(1);
  expect(table).toMatch(/^\| `getMe` \| served \(GET, POST\) \|/m);
  expect(table).toContain('| `logOut` | refused | 400 `Bad Request: method logOut is not supported: these are handled by the server');
});
