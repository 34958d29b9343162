import { createInflateRaw, crc32, inflateRawSync } from 'node:zlib';

/**
 * Reads an .xlsx archive without trusting it. A zip bomb declares sizes over the budget; a lying or
 * damaged entry fails when it is inflated: Node's output cap is set to the size the directory
 * records, so it fails at that size instead of filling memory, and every entry's CRC-32 is checked.
 * Each refusal names its cause.
 */
export type ZipEntry = {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
};
export type ZipArchive = { buffer: Buffer; entries: Map<string, ZipEntry> };

const CORRUPT = 'The file is not a valid .xlsx workbook: its archive is corrupt';

/** A damaged entry: the archive's directory is readable but this part's data is not what it says. */
export const damagedMessage = (name: string, cause: string): string =>
  `The file is not a valid .xlsx workbook: its part ${name} is damaged (${cause})`;

export const bombMessage = (max: number): string =>
  `The workbook expands to more than ${Math.round(max / 1024 / 1024)} MB when unpacked and is refused (a zip bomb or far too large)`;

/** A damaged part found while it is streamed; its message is for the user. */
export class ZipDamage extends Error {}

/**
 * The archive's directory, checked: readable, at most 10,000 parts, declared sizes within
 * `maxUncompressedBytes`, every local header where the directory says, and a workbook inside.
 */
export function openZip(buffer: Buffer, maxUncompressedBytes: number): ZipArchive | { problem: string } {
  const eocd = findEndOfCentralDirectory(buffer);
  if (eocd < 0) return { problem: CORRUPT };
  const count = buffer.readUInt16LE(eocd + 10);
  const directorySize = buffer.readUInt32LE(eocd + 12);
  const directoryOffset = buffer.readUInt32LE(eocd + 16);
  if (directoryOffset + directorySize > buffer.length) return { problem: CORRUPT };
  if (count > 10_000) return { problem: 'The workbook holds too many parts to be a spreadsheet' };

  const entries = new Map<string, ZipEntry>();
  let total = 0;
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buffer.length || buffer.readUInt32LE(at) !== 0x02014b50) return { problem: CORRUPT };
    const nameLength = buffer.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      method: buffer.readUInt16LE(at + 10),
      crc: buffer.readUInt32LE(at + 16),
      compressedSize: buffer.readUInt32LE(at + 20),
      size: buffer.readUInt32LE(at + 24),
      localOffset: buffer.readUInt32LE(at + 42),
      name: buffer.toString('utf8', at + 46, at + 46 + nameLength),
    };
    at += 46 + nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
    // 0xFFFFFFFF means a ZIP64 size: no spreadsheet within the upload limit needs one.
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff)
      return { problem: bombMessage(maxUncompressedBytes) };
    total += entry.size;
    if (total > maxUncompressedBytes) return { problem: bombMessage(maxUncompressedBytes) };
    if (dataStart(buffer, entry) < 0) return { problem: CORRUPT };
    if (entry.method !== 0 && entry.method !== 8)
      return { problem: damagedMessage(entry.name, 'it is packed with a method Excel does not use') };
    entries.set(entry.name, entry);
  }
  if (!entries.has('[Content_Types].xml') || !entries.has('xl/workbook.xml'))
    return { problem: 'The file is a zip archive but not an Excel workbook' };
  return { buffer, entries };
}

/** Where an entry's packed data starts, or -1 when its local header or data lies outside the file. */
function dataStart(buffer: Buffer, entry: ZipEntry): number {
  const at = entry.localOffset;
  if (at + 30 > buffer.length || buffer.readUInt32LE(at) !== 0x04034b50) return -1;
  const start = at + 30 + buffer.readUInt16LE(at + 26) + buffer.readUInt16LE(at + 28);
  return start + entry.compressedSize > buffer.length ? -1 : start;
}

const packed = (archive: ZipArchive, entry: ZipEntry): Buffer => {
  const start = dataStart(archive.buffer, entry);
  return archive.buffer.subarray(start, start + entry.compressedSize);
};

/** One entry's bytes, whole (the small parts: workbook, relationships, styles). */
export function inflateEntry(archive: ZipArchive, entry: ZipEntry): Buffer | { problem: string } {
  const data = packed(archive, entry);
  let out: Buffer;
  if (entry.method === 0) out = data;
  else {
    try {
      out = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    } catch (error) {
      return {
        problem: damagedMessage(
          entry.name,
          error instanceof RangeError
            ? 'it unpacks to more than its recorded size'
            : 'its compressed data cannot be unpacked',
        ),
      };
    }
  }
  const cause = checkEntry(entry, out.length, crc32(out));
  return cause ? { problem: damagedMessage(entry.name, cause) } : out;
}

function checkEntry(entry: ZipEntry, size: number, crc: number): string | null {
  if (size > entry.size) return 'it unpacks to more than its recorded size';
  if (size < entry.size) return 'it unpacks to less than its recorded size';
  if (crc >>> 0 !== entry.crc) return 'its checksum does not match its contents';
  return null;
}

/**
 * One entry's bytes in chunks of about 64 KB, so a 300 MB sheet is never held whole. Throws
 * ZipDamage (with the user's message) when the data is damaged, larger or smaller than recorded,
 * or its checksum differs; stopping early (a `break`) releases the inflater.
 */
export async function* entryChunks(archive: ZipArchive, entry: ZipEntry): AsyncGenerator<Buffer> {
  const data = packed(archive, entry);
  if (entry.method === 0) {
    const cause = checkEntry(entry, data.length, crc32(data));
    if (cause) throw new ZipDamage(damagedMessage(entry.name, cause));
    for (let at = 0; at < data.length; at += 65_536) yield data.subarray(at, at + 65_536);
    return;
  }
  const inflater = createInflateRaw({ chunkSize: 65_536 });
  let size = 0;
  let crc = 0;
  try {
    inflater.end(data);
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > entry.size)
        throw new ZipDamage(damagedMessage(entry.name, 'it unpacks to more than its recorded size'));
      crc = crc32(chunk, crc);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ZipDamage) throw error;
    throw new ZipDamage(damagedMessage(entry.name, 'its compressed data cannot be unpacked'));
  } finally {
    inflater.destroy();
  }
  const cause = checkEntry(entry, size, crc);
  if (cause) throw new ZipDamage(damagedMessage(entry.name, cause));
}

/**
 * Checks an .xlsx archive whole: returns a problem for the user, or null when the archive is sound
 * (every entry inflated within its recorded size and matching its checksum).
 */
export function zipProblem(
  buffer: Buffer,
  maxUncompressedBytes: number,
  /** Gets every entry's inflated bytes by name (they are inflated here anyway). */
  inflated?: Map<string, Buffer>,
): string | null {
  const archive = openZip(buffer, maxUncompressedBytes);
  if ('problem' in archive) return archive.problem;
  for (const entry of archive.entries.values()) {
    const bytes = inflateEntry(archive, entry);
    if ('problem' in bytes) return bytes.problem;
    inflated?.set(entry.name, bytes);
  }
  return null;
}

function findEndOfCentralDirectory(buffer: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes at the very end.
  const stop = Math.max(0, buffer.length - 22 - 65_535);
  for (let at = buffer.length - 22; at >= stop; at--) if (buffer.readUInt32LE(at) === 0x06054b50) return at;
  return -1;
}
