// The table of Telegram Bot API methods in docs/bots.md, built from what the server serves: the methods of the Bot
// API document (generated/openapi/bot.json) and the methods it refuses with a reason (src/chat/bots/api/unsupported.ts).
import { readFileSync } from 'node:fs';
import { unsupportedMethods } from '../../src/chat/bots/api/unsupported.js';

export const tableStart = '<!-- bot-methods:start (built by test/integration/bots/methods-table.test.ts) -->';
export const tableEnd = '<!-- bot-methods:end -->';

interface Operation {
  summary?: string;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown between the markers: served methods, refused methods with the exact error, update types. */
export function botMethodsTable(documentPath: string): string {
  const doc = JSON.parse(readFileSync(documentPath, 'utf8')) as Document;
  const served = new Map<string, { verbs: string[]; summary: string }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const method = path.slice(path.lastIndexOf('/') + 1);
    for (const [verb, operation] of Object.entries(item)) {
      const entry = served.get(method) ?? { verbs: [], summary: operation.summary ?? '' };
      entry.verbs.push(verb.toUpperCase());
      // The POST's summary where both are served: the GET's names the seed's form.
      if (verb === 'post' && operation.summary) entry.summary = operation.summary;
      served.set(method, entry);
    }
  }
  const rows = [...served.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([method, { verbs, summary }]) => `| \`${method}\` | served (${verbs.sort().join(', ')}) | ${cell(summary)} |`);
  const refused = unsupportedMethods()
    .sort((a, b) => a.method.localeCompare(b.method))
    .map(({ method, reason }) => `| \`${method}\` | refused | 400 \`Bad Request: method ${method} is not supported: ${cell(reason)}\` |`);
  const updates = Object.keys(doc.components.schemas.Update?.properties ?? {})
    .filter((name) => !name.startsWith('update_'))
    .map((name) => `\`${name}\``);
  return [
    tableStart,
    '| method | here | what it does, or the exact error |',
    '|---|---|---|',
    ...rows,
    ...refused,
    '',
    `Update types delivered: ${updates.join(', ')}. Any other method name answers 404 \`Not Found\`.`,
    tableEnd,
  ].join('\n');
}
