import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

/**
 * A ZIP archive written straight into a stream (APPNOTE 6.3): each entry is deflated as it
 * comes, with its CRC and sizes in a data descriptor after the data, so nothing but zlib's window
 * and one chunk is held, and every write waits for the stream to drain. ZIP64 fields are written
 * only where a size or offset passes 4 GiB, so ordinary files stay readable by every unzipper.
 */

const UINT32_MAX = 0xffffffff;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8_NAME = 0x0800;
const DEFLATE = 8;
const VERSION_DEFAULT = 20;
const VERSION_ZIP64 = 45;

type Entry = {
  name: Buffer;
  crc: number;
  compressed: number;
  uncompressed: number;
  offset: number;
};

/** Time and date as MS-DOS writes them (2-second steps, local fields taken from UTC). */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * Waits while the response holds more than it has sent: the database is read no faster than the
 * client downloads, so a slow client does not make the server hold the file.
 */
export function drained(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
  });
}

/** Thrown when the reader went away: the export stops reading the database. */
export class DownloadClosedError extends Error {
  constructor() {
    super('The download was closed before the file was complete');
  }
}

export class ZipWriter {
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly stamp: { time: number; date: number };

  constructor(
    private readonly out: Writable,
    now = new Date(),
    private readonly level = 6,
  ) {
    this.stamp = dosDateTime(now);
  }

  /** Writes bytes, waiting while the stream holds more than its buffer. */
  private async write(bytes: Buffer): Promise<void> {
    if (this.out.destroyed) throw new DownloadClosedError();
    this.offset += bytes.length;
    if (this.out.write(bytes)) return;
    await drained(this.out);
    if (this.out.destroyed) throw new DownloadClosedError();
  }

  private localHeader(name: Buffer): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION_DEFAULT, 4);
    header.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8_NAME, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.date, 12);
    // CRC and sizes (bytes 14–25) are zero here and follow the data in the descriptor.
    header.writeUInt16LE(name.length, 26);
    return Buffer.concat([header, name]);
  }

  private static descriptor(entry: Entry): Buffer {
    const zip64 = entry.compressed > UINT32_MAX || entry.uncompressed > UINT32_MAX;
    const descriptor = Buffer.alloc(zip64 ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    if (zip64) {
      descriptor.writeBigUInt64LE(BigInt(entry.compressed), 8);
      descriptor.writeBigUInt64LE(BigInt(entry.uncompressed), 16);
    } else {
      descriptor.writeUInt32LE(entry.compressed, 8);
      descriptor.writeUInt32LE(entry.uncompressed, 12);
    }
    return descriptor;
  }

  /** A small entry held whole (styles, workbook, relationships). */
  async add(name: string, content: string | Buffer): Promise<void> {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const compressed = deflateRawSync(data, { level: this.level });
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      crc: crc32(data),
      compressed: compressed.length,
      uncompressed: data.length,
      offset: this.offset,
    };
    await this.write(this.localHeader(entry.name));
    await this.write(compressed);
    await this.write(ZipWriter.descriptor(entry));
    this.entries.push(entry);
  }

  /**
   * An entry whose content is produced while it is written (a worksheet): the next part is asked
   * for only when zlib has taken the last one, and zlib's output is written as the stream drains.
   */
  async addStream(name: string, parts: AsyncIterable<string | Buffer>): Promise<void> {
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      crc: 0,
      compressed: 0,
      uncompressed: 0,
      offset: this.offset,
    };
    await this.write(this.localHeader(entry.name));
    const deflate = createDeflateRaw({ level: this.level });
    const pump = (async () => {
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        entry.compressed += chunk.length;
        await this.write(chunk);
      }
    })();
    // Its failure (the reader went away) is rethrown below, where the writing loop awaits it.
    pump.catch(() => undefined);
    try {
      for await (const part of parts) {
        const data = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
        if (data.length === 0) continue;
        entry.crc = crc32(data, entry.crc);
        entry.uncompressed += data.length;
        if (!deflate.write(data)) await Promise.race([once(deflate, 'drain'), pump]);
      }
      deflate.end();
      await pump;
    } catch (error) {
      deflate.destroy();
      await pump.catch(() => undefined);
      throw error;
    }
    await this.write(ZipWriter.descriptor(entry));
    this.entries.push(entry);
  }

  /** The central directory and its end records; the archive is complete after this. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const entry of this.entries) await this.write(this.centralHeader(entry));
    const size = this.offset - start;
    const count = this.entries.length;
    if (start > UINT32_MAX || size > UINT32_MAX || count > 0xffff) {
      await this.write(ZipWriter.zip64End(count, size, start, this.offset));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(Math.min(size, UINT32_MAX), 12);
    end.writeUInt32LE(Math.min(start, UINT32_MAX), 16);
    await this.write(end);
  }

  private centralHeader(entry: Entry): Buffer {
    const large = [entry.uncompressed, entry.compressed, entry.offset].map((n) => n > UINT32_MAX);
    const extraFields = [entry.uncompressed, entry.compressed, entry.offset].filter((_, i) => large[i]);
    const extra = Buffer.alloc(extraFields.length ? 4 + 8 * extraFields.length : 0);
    if (extraFields.length) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8 * extraFields.length, 2);
      extraFields.forEach((n, i) => extra.writeBigUInt64LE(BigInt(n), 4 + 8 * i));
    }
    const version = extraFields.length ? VERSION_ZIP64 : VERSION_DEFAULT;
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(version, 4);
    header.writeUInt16LE(version, 6);
    header.writeUInt16LE(FLAG_DATA_DESCRIPTOR | FLAG_UTF8_NAME, 8);
    header.writeUInt16LE(DEFLATE, 10);
    header.writeUInt16LE(this.stamp.time, 12);
    header.writeUInt16LE(this.stamp.date, 14);
    header.writeUInt32LE(entry.crc, 16);
    header.writeUInt32LE(large[1] ? UINT32_MAX : entry.compressed, 20);
    header.writeUInt32LE(large[0] ? UINT32_MAX : entry.uncompressed, 24);
    header.writeUInt16LE(entry.name.length, 28);
    header.writeUInt16LE(extra.length, 30);
    header.writeUInt32LE(large[2] ? UINT32_MAX : entry.offset, 42);
    return Buffer.concat([header, entry.name, extra]);
  }

  /** The ZIP64 end of central directory record and its locator. */
  private static zip64End(count: number, size: number, start: number, at: number): Buffer {
    const record = Buffer.alloc(56 + 20);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(VERSION_ZIP64, 12);
    record.writeUInt16LE(VERSION_ZIP64, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(size), 40);
    record.writeBigUInt64LE(BigInt(start), 48);
    record.writeUInt32LE(0x07064b50, 56);
    record.writeBigUInt64LE(BigInt(at), 64);
    record.writeUInt32LE(1, 72);
    return record;
  }
}
