// The files a message carries as every message view shows them: the copy of each file's facts the message row keeps
// (messages.attachments, written by src/chat/media/attachments.ts) and the download path on the chat listener.
/** What messages.attachments holds per file. */
export interface StoredAttachment {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  /** An image's size in pixels, when its upload read it from the header. */
  width?: number;
  height?: number;
}

export interface AttachmentView extends StoredAttachment {
  url: string;
}

/** The download path of a file on the chat listener (src/chat/media/downloads.ts). */
export const filePath = (id: string): string => `/media/files/${id}`;

export function attachmentViews(stored: StoredAttachment[] | null): AttachmentView[] {
  return (stored ?? []).map((a) => ({
    id: a.id,
    fileName: a.fileName,
    contentType: a.contentType,
    size: a.size,
    ...(a.width !== undefined && a.height !== undefined ? { width: a.width, height: a.height } : {}),
    url: filePath(a.id),
  }));
}
