// Platform features some example bots need before they can run to the end, read from the chat contract the platform
// serves: an example that needs one the contract does not declare yet is skipped, and its test name says what it waits on.
import { readFileSync } from 'node:fs';

export type Feature = 'reply-keyboards' | 'formatting' | 'image-sizes';

const schemas = (JSON.parse(readFileSync('generated/openapi/chat.json', 'utf8')) as { components: { schemas: Record<string, any> } })
  .components.schemas;

const declared: Record<Feature, boolean> = {
  // A message shows a bot's reply keyboard, its removal or a forced reply.
  'reply-keyboards': 'replyMarkup' in (schemas.MessageResponse?.properties ?? {}),
  // A message carries a bot's formatting (bold, code, links...) beside its mentions.
  formatting: 'formatting' in (schemas.MessageResponse?.properties ?? {}),
  // A user's picture keeps its size in pixels, which a bot needs to receive it as a photo rather than a document.
  'image-sizes': 'width' in (schemas.Attachment?.properties ?? {}),
};

/** The needed features the platform lacks. */
export const missing = (needs: Feature[]): Feature[] => needs.filter((feature) => !declared[feature]);

/** test(), or test.skip() named for the features it waits on while any is missing. */
export function exampleTest(name: string, needs: Feature[], fn: () => Promise<void>, timeoutMs = 60_000): void {
  const absent = missing(needs);
  if (absent.length === 0) test(name, fn, timeoutMs);
  else test.skip(`${name} (waits on: ${absent.join(', ')})`, fn);
}
