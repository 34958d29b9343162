import { inflateRawSync } from 'node:zlib';

/**
 * Checks an .xlsx archive before a workbook reader inflates it. A zip bomb declares small sizes
 * or a huge ratio; a corrupt archive has no readable central directory. Every entry is inflated
 * here with Node's output cap set to its declared size, so a lying header fails at that size
 * instead of filling memory. Returns a problem for the user, or null when the archive is sound.
 */
export function zipProblem(
  buffer: Buffer,
  maxUncompressedBytes: number,
  /** Gets every entry's inflated bytes by name (they are inflated here anyway). */
  inflated?: Map<string, Buffer>,
): string | null {
  const corrupt = 'The file is not a valid .xlsx workbook: its archive is corrupt';
  const eocd = findEndOfCentralDirectory(buffer);
  if (eocd < 0) return corrupt;
  const entries = buffer.readUInt16LE(eocd + 10);
  const directorySize = buffer.readUInt32LE(eocd + 12);
  const directoryOffset = buffer.readUInt32LE(eocd + 16);
  if (directoryOffset + directorySize > buffer.length) return corrupt;
  if (entries > 10_000) return 'The workbook holds too many parts to be a spreadsheet';

  const names = new Set<string>();
  let total = 0;
  let at = directoryOffset;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > buffer.length || buffer.readUInt32LE(at) !== 0x02014b50) return corrupt;
    const method = buffer.readUInt16LE(at + 10);
    const compressedSize = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const localOffset = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    names.add(name);
    at += 46 + nameLength + extraLength + commentLength;

    // 0xFFFFFFFF means a ZIP64 size: no spreadsheet within the upload limit needs one.
    if (size === 0xffffffff || compressedSize === 0xffffffff) return bombMessage(maxUncompressedBytes);
    total += size;
    if (total > maxUncompressedBytes) return bombMessage(maxUncompressedBytes);
    const entry = inflate(buffer, localOffset, method, compressedSize, size);
    if (entry === 'bomb') return bombMessage(maxUncompressedBytes);
    if (entry === 'corrupt') return corrupt;
    inflated?.set(name, entry);
  }
  if (!names.has('[Content_Types].xml') || !names.has('xl/workbook.xml'))
    return 'The file is a zip archive but not an Excel workbook';
  return null;
}

const bombMessage = (max: number): string =>
  `The workbook expands to more than ${Math.round(max / 1024 / 1024)} MB when unpacked and is refused (a zip bomb or far too large)`;

function findEndOfCentralDirectory(buffer: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes at the very end.
  const stop = Math.max(0, buffer.length - 22 - 65_535);
  for (let at = buffer.length - 22; at >= stop; at--) if (buffer.readUInt32LE(at) === 0x06054b50) return at;
  return -1;
}

function inflate(
  buffer: Buffer,
  localOffset: number,
  method: number,
  compressedSize: number,
  size: number,
): Buffer | 'bomb' | 'corrupt' {
  if (localOffset + 30 > buffer.length || buffer.readUInt32LE(localOffset) !== 0x04034b50) return 'corrupt';
  const start =
    localOffset + 30 + buffer.readUInt16LE(localOffset + 26) + buffer.readUInt16LE(localOffset + 28);
  if (start + compressedSize > buffer.length) return 'corrupt';
  if (method === 0) return compressedSize === size ? buffer.subarray(start, start + size) : 'corrupt';
  if (method !== 8) return 'corrupt';
  try {
    const out = inflateRawSync(buffer.subarray(start, start + compressedSize), { maxOutputLength: size + 1 });
    return out.length === size ? out : 'corrupt';
  } catch (error) {
    return error instanceof RangeError ? 'bomb' : 'corrupt';
  }
}
