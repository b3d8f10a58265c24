// A zip archive written without a library: local file headers, deflated data, the central directory and the end
// record (PKWARE APPNOTE 6.3, no ZIP64: an export stays far below 4 GiB and 65535 files). Each file is fed in
// chunks, each compressed on its own as raw deflate blocks ended by a sync flush and the whole ended by an empty
// final block, so only compressed bytes are held while a file is written.
import { constants, crc32, deflateRawSync } from 'node:zlib';

interface CentralEntry {
  name: Buffer;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const utf8Flag = 0x0800;
const deflated = 8;
const version = 20;

/** MS-DOS time and date of the archive's moment (the format keeps local wall time; UTC is written). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export interface ZipFile {
  write(chunk: Buffer): void;
  /** Ends the file; its size and CRC-32 are then known. */
  end(): { size: number; compressedSize: number };
}

export class ZipWriter {
  private readonly chunks: Buffer[] = [];
  private readonly entries: CentralEntry[] = [];
  private offset = 0;
  private open = false;
  private readonly stamp: { time: number; date: number };

  constructor(at: Date) {
    this.stamp = dosTime(at);
  }

  /** Starts a file; one file is written at a time. */
  file(name: string): ZipFile {
    if (this.open) throw new Error('a zip file is still being written');
    this.open = true;
    const parts: Buffer[] = [];
    let crc = 0;
    let size = 0;
    let compressedSize = 0;
    const push = (part: Buffer) => {
      parts.push(part);
      compressedSize += part.length;
    };
    return {
      write: (chunk) => {
        if (chunk.length === 0) return;
        crc = crc32(chunk, crc);
        size += chunk.length;
        push(deflateRawSync(chunk, { finishFlush: constants.Z_SYNC_FLUSH }));
      },
      end: () => {
        push(deflateRawSync(Buffer.alloc(0)));
        const entry = { name: Buffer.from(name, 'utf8'), crc, compressedSize, size, offset: this.offset };
        this.append(this.localHeader(entry), ...parts);
        this.entries.push(entry);
        this.open = false;
        return { size, compressedSize };
      },
    };
  }

  /** A whole file at once. */
  add(name: string, bytes: Buffer): void {
    const f = this.file(name);
    f.write(bytes);
    f.end();
  }

  /** Ends the archive: its bytes, in order. */
  finish(): Buffer[] {
    const start = this.offset;
    for (const entry of this.entries) this.append(this.centralHeader(entry));
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.append(end);
    return this.chunks;
  }

  private append(...parts: Buffer[]): void {
    for (const part of parts) {
      this.chunks.push(part);
      this.offset += part.length;
    }
  }

  private localHeader(e: CentralEntry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(version, 4);
    h.writeUInt16LE(utf8Flag, 6);
    h.writeUInt16LE(deflated, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    h.writeUInt32LE(e.crc >>> 0, 14);
    h.writeUInt32LE(e.compressedSize, 18);
    h.writeUInt32LE(e.size, 22);
    h.writeUInt16LE(e.name.length, 26);
    return Buffer.concat([h, e.name]);
  }

  private centralHeader(e: CentralEntry): Buffer {
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(version, 4);
    h.writeUInt16LE(version, 6);
    h.writeUInt16LE(utf8Flag, 8);
    h.writeUInt16LE(deflated, 10);
    h.writeUInt16LE(this.stamp.time, 12);
    h.writeUInt16LE(this.stamp.date, 14);
    h.writeUInt32LE(e.crc >>> 0, 16);
    h.writeUInt32LE(e.compressedSize, 20);
    h.writeUInt32LE(e.size, 24);
    h.writeUInt16LE(e.name.length, 28);
    h.writeUInt32LE(e.offset, 42);
    return Buffer.concat([h, e.name]);
  }
}
