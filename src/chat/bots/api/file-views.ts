// A message's first file as Telegram shows it (docs/adr/0136-bot-api-media.md). The kind a bot sent it as
// (sendVideo, sendAudio, ...) is kept on the message's attachment; a file without one (a user's attachment, or one
// sent before kinds were kept) is a photo when it is an image the chat shows inline (or its size in pixels is
// known), else a document. Only what the platform knows is shown, nothing is guessed: a kind whose fields Telegram
// requires (a photo's size in pixels, a video's size and duration, an audio's or voice's duration, a video note's
// length and duration) is shown as a document when one of them is unknown, since the libraries refuse a PhotoSize
// or Video without them and would drop the whole update.
import type { StoredAttachment } from '../../base/attachment-views.js';
import { fileIdOf, fileUniqueIdOf } from './file-ids.js';

export const fileKinds = ['document', 'photo', 'video', 'animation', 'audio', 'voice', 'video_note'] as const;
export type FileKind = (typeof fileKinds)[number];

/** A message's file as stored: the chat's facts, and what the Bot API knows of it besides. */
export interface BotAttachment extends StoredAttachment {
  /** The method's kind, when a bot sent it (absent on users' files). */
  kind?: FileKind;
  width?: number;
  height?: number;
  /** Seconds, as the sending bot stated it. */
  duration?: number;
  performer?: string;
  title?: string;
  /** The album (sendMediaGroup) the message belongs to. */
  mediaGroupId?: string;
}

interface FileIds {
  file_id: string;
  file_unique_id: string;
}

export interface TelegramPhotoSize extends FileIds {
  width?: number;
  height?: number;
  file_size: number;
}

export interface TelegramDocument extends FileIds {
  file_name: string;
  mime_type: string;
  file_size: number;
}

export type TelegramVideo = TelegramDocument & { width?: number; height?: number; duration?: number };
export type TelegramAudio = TelegramDocument & { duration?: number; performer?: string; title?: string };
export type TelegramVoice = Omit<TelegramDocument, 'file_name'> & { duration?: number };
export type TelegramVideoNote = FileIds & { length?: number; duration?: number; file_size: number };

export interface FileFields {
  document?: TelegramDocument;
  photo?: TelegramPhotoSize[];
  video?: TelegramVideo;
  animation?: TelegramVideo;
  audio?: TelegramAudio;
  voice?: TelegramVoice;
  video_note?: TelegramVideoNote;
  media_group_id?: string;
}

/** Image types the chat's clients show inline (and imageSize reads). */
const photoTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export function kindOf(file: BotAttachment): FileKind {
  if (file.kind) return file.kind;
  if (file.width !== undefined && file.height !== undefined) return 'photo';
  return photoTypes.has(file.contentType.toLowerCase()) ? 'photo' : 'document';
}

/** The keys of `facts` whose values are known. */
export function known<T extends object>(facts: T): Partial<T> {
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function kindFields(file: BotAttachment, kind: FileKind): FileFields {
  const ids = { file_id: fileIdOf(file.id), file_unique_id: fileUniqueIdOf(file.id) };
  const document = { ...ids, file_name: file.fileName, mime_type: file.contentType, file_size: file.size };
  const pixels = known({ width: file.width, height: file.height });
  const duration = known({ duration: file.duration });
  switch (kind) {
    case 'photo':
      return { photo: [{ ...ids, ...pixels, file_size: file.size }] };
    case 'video':
      return { video: { ...document, ...pixels, ...duration } };
    case 'animation':
      // Telegram shows an animation as a document too, for clients that know no animations.
      return { animation: { ...document, ...pixels, ...duration }, document };
    case 'audio':
      return { audio: { ...document, ...duration, ...known({ performer: file.performer, title: file.title }) } };
    case 'voice':
      return { voice: { ...ids, mime_type: file.contentType, file_size: file.size, ...duration } };
    case 'video_note':
      return { video_note: { ...ids, ...known({ length: file.width }), ...duration, file_size: file.size } };
    default:
      return { document };
  }
}

/** Whether the facts Telegram requires of the kind are known (a document requires none). */
function requiredKnown(file: BotAttachment, kind: FileKind): boolean {
  const pixels = file.width !== undefined && file.height !== undefined;
  const duration = file.duration !== undefined;
  switch (kind) {
    case 'photo':
      return pixels;
    case 'video':
    case 'animation':
      return pixels && duration;
    case 'audio':
    case 'voice':
      return duration;
    case 'video_note':
      return file.width !== undefined && duration;
    default:
      return true;
  }
}

/** The first file of a message in Telegram's fields, with the album it belongs to. */
export function fileFields(file: BotAttachment): FileFields {
  const kind = kindOf(file);
  const shown = requiredKnown(file, kind) ? kind : 'document';
  return { ...kindFields(file, shown), ...(file.mediaGroupId ? { media_group_id: file.mediaGroupId } : {}) };
}
