// The chat topics the code may emit (topics.ts, typed from the chat document) are the ones docs/events.md lists and
// the served document declares; the internal topics are listed in docs/events.md's own sections and are never chat
// topics.
import { readFileSync } from 'node:fs';
import { internalTopics } from '../../core/events/internal-topics.js';
import { chatTopics } from './topics.js';

const root = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** The sections of docs/events.md whose topics are internal (no chat client receives them). */
const internalSections = new Set(['Workspace events (svc.event)', 'Webhooks']);

/** The topics of docs/events.md: each backticked dotted name in the first cell of a table row, by section; and the section titles. */
function documentedTopics(): { chat: string[]; internal: string[] } {
  const chat: string[] = [];
  const internal: string[] = [];
  let section = '';
  for (const line of read('docs/events.md').split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      section = heading[1]!.trim();
      const named = /\(([a-z_]+\.[a-z_]+)\)$/.exec(section);
      if (named && internalSections.has(section)) internal.push(named[1]!);
      continue;
    }
    if (!line.startsWith('|')) continue;
    const first = line.split('|')[1] ?? '';
    const topics = [...first.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((m) => m[1]!);
    (internalSections.has(section) ? internal : chat).push(...topics);
  }
  return { chat: sorted(chat), internal: sorted(internal) };
}

test('docs/events.md lists exactly the chat topics the code may emit', () => {
  expect(documentedTopics().chat).toEqual(sorted(chatTopics));
});

test('the chat document declares exactly those topics as its webhooks', () => {
  const doc = JSON.parse(read('generated/openapi/chat.json')) as { webhooks?: Record<string, unknown> };
  expect(doc.webhooks).toBeInstanceOf(Object);
  expect(sorted(Object.keys(doc.webhooks!))).toEqual(sorted(chatTopics));
});

test('docs/events.md lists exactly the internal topics, and none is a chat topic', () => {
  expect(documentedTopics().internal).toEqual(sorted(internalTopics));
  expect(internalTopics.filter((t) => (chatTopics as string[]).includes(t))).toEqual([]);
});
