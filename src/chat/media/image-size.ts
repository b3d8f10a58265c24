// An image's type and size in pixels, read from its first bytes only (no decoding): PNG's IHDR, GIF's logical
// screen, WebP's VP8/VP8L/VP8X header and JPEG's first start-of-frame marker. Anything else is no image here.

export interface ImageSize {
  contentType: 'image/png' | 'image/gif' | 'image/webp' | 'image/jpeg';
  width: number;
  height: number;
}

/** How many leading bytes imageSize needs at most (a JPEG's frame header may follow large metadata segments). */
export const imageHeadBytes = 256 * 1024;

const ascii = (b: Buffer, at: number, length: number) => b.toString('latin1', at, at + length);

function png(b: Buffer): ImageSize | null {
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { contentType: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gif(b: Buffer): ImageSize | null {
  if (b.length < 10 || !/^GIF8[79]a$/.test(ascii(b, 0, 6))) return null;
  return { contentType: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webp(b: Buffer): ImageSize | null {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') return { contentType: 'image/webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { contentType: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { contentType: 'image/webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}

// Start-of-frame markers: C0-CF except C4 (DHT), C8 (JPG) and CC (DAC).
const isFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(b: Buffer): ImageSize | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (isFrame(marker)) return { contentType: 'image/jpeg', height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    at += 2 + b.readUInt16BE(at + 2);
  }
  return null;
}

/** The image's type and size, or null when the bytes are no image this reads (or it has no pixels). */
export function imageSize(head: Buffer): ImageSize | null {
  const found = png(head) ?? gif(head) ?? webp(head) ?? jpeg(head);
  return found && found.width > 0 && found.height > 0 ? found : null;
}
