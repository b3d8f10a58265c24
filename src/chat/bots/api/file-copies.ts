// copyMessage's files: the copy carries the original's stored files themselves (as a forward does), with the kinds
// and facts they were sent with, but not the original's album.
import type { AttachFiles } from './messages.js';
import type { BotAttachment } from './file-views.js';

/** The files a copy carries, or undefined when the original has none. */
export function copiedFiles(attachments: BotAttachment[] | null): AttachFiles | undefined {
  if (!attachments || attachments.length === 0) return undefined;
  const copies = attachments.map(({ mediaGroupId: _album, ...file }) => file);
  return async () => copies;
}
