// What a media file's own headers say of it, read from bytes already in memory (a part or a URL's content): an
// ISO base media file's (MP4, MOV, M4A) duration from the movie header and its video track's size from the track
// header, and an Ogg Opus or Vorbis stream's duration from its last page. Nothing is decoded; a file this does not
// read has no facts, and the Bot API then shows none rather than guessing (docs/adr/0136-bot-api-media.md).

export interface MediaFacts {
  duration?: number;
  width?: number;
  height?: number;
}

interface Box {
  type: string;
  start: number;
  end: number;
}

/** The boxes between `from` and `to`, in order; a malformed size ends the list. */
function boxes(b: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = b.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(b.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    found.push({ type: b.toString('latin1', at + 4, at + 8), start: at + header, end: at + size });
    at += size;
  }
  return found;
}

const child = (b: Buffer, parent: Box, type: string) => boxes(b, parent.start, parent.end).find((box) => box.type === type);

function movieDuration(b: Buffer, mvhd: Box): number | undefined {
  const v1 = b[mvhd.start] === 1;
  const scaleAt = mvhd.start + (v1 ? 20 : 12);
  if (scaleAt + (v1 ? 12 : 8) > mvhd.end) return undefined;
  const scale = b.readUInt32BE(scaleAt);
  const units = v1 ? Number(b.readBigUInt64BE(scaleAt + 4)) : b.readUInt32BE(scaleAt + 4);
  return scale > 0 && Number.isFinite(units) ? Math.round(units / scale) : undefined;
}

/** The first track with a picture: its size in pixels (16.16 fixed point in the track header). */
function pictureSize(b: Buffer, moov: Box): { width: number; height: number } | undefined {
  for (const trak of boxes(b, moov.start, moov.end).filter((box) => box.type === 'trak')) {
    const tkhd = child(b, trak, 'tkhd');
    if (!tkhd) continue;
    const at = tkhd.start + (b[tkhd.start] === 1 ? 88 : 76);
    if (at + 8 > tkhd.end) continue;
    const width = b.readUInt32BE(at) >>> 16;
    const height = b.readUInt32BE(at + 4) >>> 16;
    if (width > 0 && height > 0) return { width, height };
  }
  return undefined;
}

function isoMedia(b: Buffer): MediaFacts | null {
  const top = boxes(b, 0, b.length);
  if (top[0]?.type !== 'ftyp') return null;
  const moov = top.find((box) => box.type === 'moov');
  if (!moov) return null;
  const mvhd = child(b, moov, 'mvhd');
  const duration = mvhd ? movieDuration(b, mvhd) : undefined;
  return { ...(duration !== undefined ? { duration } : {}), ...pictureSize(b, moov) };
}

/** Samples per second of the stream whose first page begins the file, and the samples to skip (Opus' pre-skip). */
function oggClock(b: Buffer): { rate: number; skip: number } | null {
  if (b.length < 28 || b.toString('latin1', 0, 4) !== 'OggS') return null;
  const packet = 27 + b[26]!;
  if (b.toString('latin1', packet, packet + 8) === 'OpusHead' && packet + 12 <= b.length)
    return { rate: 48000, skip: b.readUInt16LE(packet + 10) };
  if (b.toString('latin1', packet, packet + 7) === '\u0001vorbis' && packet + 16 <= b.length)
    return { rate: b.readUInt32LE(packet + 12), skip: 0 };
  return null;
}

function ogg(b: Buffer): MediaFacts | null {
  const clock = oggClock(b);
  if (!clock || clock.rate === 0) return null;
  const last = b.lastIndexOf('OggS', b.length - 27, 'latin1');
  if (last < 0 || last + 14 > b.length) return {};
  const granule = Number(b.readBigInt64LE(last + 6));
  return granule >= clock.skip ? { duration: Math.round((granule - clock.skip) / clock.rate) } : {};
}

/** The facts the file's headers state, or an empty object when this reads none. */
export function mediaFacts(bytes: Uint8Array): MediaFacts {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return isoMedia(b) ?? ogg(b) ?? {};
}
