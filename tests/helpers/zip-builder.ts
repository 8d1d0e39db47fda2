import { once } from 'node:events';
import zlib from 'node:zlib';

/**
 * A minimal zip writer for hostile test archives: entries can be deflated from a repeated
 * chunk without ever holding the inflated bytes, and can declare sizes that lie.
 */

export interface ZipEntrySpec {
  name: string;
  compressed: Buffer;
  crc: number;
  size: number;
  /** What the headers claim; defaults to the real size. */
  declaredSize?: number;
  /** Compression method; 8 (deflate) unless set. `compressed` must hold bytes of that method. */
  method?: number;
  /** General-purpose flags beyond UTF-8 names (bit 0: encrypted). */
  flags?: number;
  /** Unix mode (e.g. 0o120777 for a symbolic link), written as a Unix-made entry. */
  unixMode?: number;
}

/** An entry stored without compression. */
export function storedEntry(name: string, data: Buffer | string): ZipEntrySpec {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return { name, compressed: bytes, crc: zlib.crc32(bytes), size: bytes.length, method: 0 };
}

export function deflatedEntry(name: string, data: Buffer | string): ZipEntrySpec {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return {
    name,
    compressed: zlib.deflateRawSync(bytes),
    crc: zlib.crc32(bytes),
    size: bytes.length,
  };
}

/** `head`, then `chunk` (or `chunk(i)`) repeated `times`, then `tail`, deflated without holding the whole text. */
export async function repeatedEntry(
  name: string,
  head: string,
  chunk: string | ((index: number) => string),
  times: number,
  tail: string,
): Promise<ZipEntrySpec> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (piece: Buffer) => out.push(piece));
  const ended = once(deflate, 'end');
  let crc = 0;
  let size = 0;
  const write = async (text: string): Promise<void> => {
    const bytes = Buffer.from(text);
    crc = zlib.crc32(bytes, crc);
    size += bytes.length;
    if (!deflate.write(bytes)) await once(deflate, 'drain');
  };
  await write(head);
  if (typeof chunk === 'string') {
    const perBlock = Math.max(1, Math.floor((1 << 20) / chunk.length));
    const block = chunk.repeat(perBlock);
    let left = times;
    for (; left >= perBlock; left -= perBlock) await write(block);
    if (left > 0) await write(chunk.repeat(left));
  } else {
    let block = '';
    for (let index = 0; index < times; index += 1) {
      block += chunk(index);
      if (block.length > 1 << 20) {
        await write(block);
        block = '';
      }
    }
    await write(block);
  }
  await write(tail);
  deflate.end();
  await ended;
  return { name, compressed: Buffer.concat(out), crc: crc >>> 0, size };
}

export function writeZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const flags = 0x0800 | (entry.flags ?? 0);
    const method = entry.method ?? 8;
    const declared = entry.declaredSize ?? entry.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.compressed.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    // Made by Unix (3) when a mode is given, so readers take the high attribute bits as st_mode.
    central.writeUInt16LE(entry.unixMode === undefined ? 20 : 0x0314, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.compressed.length, 20);
    central.writeUInt32LE(declared, 24);
    central.writeUInt16LE(name.length, 28);
    if (entry.unixMode !== undefined) central.writeUInt32LE((entry.unixMode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.compressed);
    centrals.push(central, name);
    offset += local.length + name.length + entry.compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
