// The content type of a file a bot sends: the one its part or URL named (unless octet-stream, as libraries send every
// file), else an image's header, the file name's extension, and last the usual container of the method's kind (a
// voice message is OGG, as Telegram requires; a video MP4), so a libraries' unnamed upload is not refused as
// octet-stream where the method says what it is.
import { typeOfFileName } from '../../media/types.js';
import type { ImageSize } from '../../media/image-size.js';
import type { FileKind } from './file-views.js';

const octetStream = 'application/octet-stream';
const mediaTypePattern = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

// Media containers the chat's own table of extensions does not name.
const mediaExtensions: Record<string, string> = {
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  flac: 'audio/flac',
  webm: 'video/webm',
  mov: 'video/quicktime',
  m4v: 'video/mp4',
};

const kindTypes: Partial<Record<FileKind, string>> = {
  video: 'video/mp4',
  animation: 'video/mp4',
  video_note: 'video/mp4',
  audio: 'audio/mpeg',
  voice: 'audio/ogg',
};

export function contentTypeOf(named: string, fileName: string, image: ImageSize | null, kind: FileKind): string {
  const type = named.split(';')[0]!.trim().toLowerCase();
  if (type !== octetStream && mediaTypePattern.test(type)) return type;
  const dot = fileName.lastIndexOf('.');
  const extension = dot < 0 ? undefined : mediaExtensions[fileName.slice(dot + 1).toLowerCase()];
  return image?.contentType ?? typeOfFileName(fileName) ?? extension ?? kindTypes[kind] ?? octetStream;
}

const maxFileName = 255;

/** Printable characters of the name given; else the kind, with the image's extension when it is one. */
export function fileNameOf(given: string, kind: FileKind, image: ImageSize | null): string {
  const name = [...given]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .trim()
    .slice(0, maxFileName);
  if (name !== '' && name !== 'blob') return name;
  return image ? `${kind}.${image.contentType.slice(6)}` : kind;
}
