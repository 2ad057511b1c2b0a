// The evidence bundle's archive format: one canonical ZIP, written and read by this module only, so that `fof verify`,
// the browser's /verify, `unzip`, Python's zipfile and a file manager all read the same bytes as the same files.
//
// Canonical: entries in the writer's order, each a local header (version 2.0, no flags, deflate, the fixed time
// 1980-01-01 00:00, the real CRC-32 and sizes, no extra field) followed at once by its deflate stream — made by fflate's
// Deflate at level 6 fed in 64 KiB pieces — then the central directory with the same fields for every entry (no
// extra field, no comment, attributes 0), then the end record (no comment), and nothing else: no byte before, between
// or after, no data descriptor, no ZIP64 (every size and offset under 4 GiB), flat lower-case names, none twice.
//
// The reader refuses, naming why, any archive that is not exactly that: it checks the end record, every directory
// entry against its local header field by field, that the entries tile the file from byte 0 to the directory, each
// entry's CRC-32 and size as it inflates, and that deflating the inflated bytes again gives the very bytes stored —
// so no reader, whichever header it trusts, can find another file or other content than this one. Platform-free
// (random access is passed in): the CLI reads a file, the browser an ArrayBuffer.
import { Deflate, Inflate } from "fflate";

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
const VERSION = 20;
const METHOD_DEFLATE = 8;
/** 1980-01-01 00:00:00 in MS-DOS form (time 0, date: day 1, month 1, year 0). */
const DOS_TIME = 0;
const DOS_DATE = 0x21;
const LEVEL = 6;
/** The deflate stream is fed in pieces of exactly this size (the last shorter): its bytes depend on it. */
const DEFLATE_PIECE = 64 * 1024;
const LOCAL_BYTES = 30;
const CENTRAL_BYTES = 46;
const END_BYTES = 22;
/** Under 4 GiB: no ZIP64. */
const MAX_U32 = 0xffffffff;
/** A bundle's file names: flat, lower-case, no path, no dot first. */
export const ENTRY_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

// CRC-32 (IEEE 802.3, reflected), as ZIP stores it.
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

export interface EntryRecord {
  name: string;
  crc: number;
  compressedSize: number;
  size: number;
  /** where its local header starts */
  offset: number;
}

const u16 = (v: DataView, at: number) => v.getUint16(at, true);
const u32 = (v: DataView, at: number) => v.getUint32(at, true);
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function header(kind: "local" | "central", e: EntryRecord): Uint8Array {
  const name = ascii(e.name);
  const fixed = kind === "local" ? LOCAL_BYTES : CENTRAL_BYTES;
  const out = new Uint8Array(fixed + name.length);
  const v = new DataView(out.buffer);
  let at = 0;
  const w16 = (x: number) => (v.setUint16(at, x, true), (at += 2));
  const w32 = (x: number) => (v.setUint32(at, x >>> 0, true), (at += 4));
  w32(kind === "local" ? LOCAL_SIG : CENTRAL_SIG);
  if (kind === "central") w16(VERSION); // made by
  w16(VERSION); // needed
  w16(0); // flags
  w16(METHOD_DEFLATE);
  w16(DOS_TIME);
  w16(DOS_DATE);
  w32(e.crc);
  w32(e.compressedSize);
  w32(e.size);
  w16(name.length);
  w16(0); // extra field
  if (kind === "central") {
    w16(0); // comment
    w16(0); // disk
    w16(0); // internal attributes
    w32(0); // external attributes
    w32(e.offset);
  }
  out.set(name, at);
  return out;
}

/** The local header that starts an entry (its sizes and CRC known: the writer compresses before it writes). */
export const localHeader = (e: EntryRecord) => header("local", e);

/** The central directory and end record after the entries (which end at `directoryOffset`). */
export function directoryAndEnd(entries: readonly EntryRecord[], directoryOffset: number): Uint8Array {
  const parts = entries.map((e) => header("central", e));
  const size = parts.reduce((a, p) => a + p.length, 0);
  if (entries.length > 0xffff || directoryOffset + size > MAX_U32) throw new Error("the archive would need ZIP64: too large for an evidence bundle");
  const out = new Uint8Array(size + END_BYTES);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  const v = new DataView(out.buffer);
  v.setUint32(at, END_SIG, true);
  v.setUint16(at + 8, entries.length, true);
  v.setUint16(at + 10, entries.length, true);
  v.setUint32(at + 12, size, true);
  v.setUint32(at + 16, directoryOffset, true);
  return out;
}

/**
 * One entry's canonical deflate stream, made as its bytes come (any chunking in, the fixed 64 KiB pieces inside):
 * `push` its bytes, then `end`; `out` receives the compressed bytes. Keeps the CRC-32 and both sizes.
 */
export class CanonicalDeflate {
  crc = 0;
  size = 0;
  compressedSize = 0;
  private readonly deflate: Deflate;
  private readonly piece = new Uint8Array(DEFLATE_PIECE);
  private filled = 0;

  constructor(out: (chunk: Uint8Array) => void) {
    this.deflate = new Deflate({ level: LEVEL }, (chunk) => {
      this.compressedSize += chunk.length;
      out(chunk);
    });
  }

  push(bytes: Uint8Array): void {
    this.crc = crc32(bytes, this.crc);
    this.size += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      const n = Math.min(DEFLATE_PIECE - this.filled, bytes.length - at);
      this.piece.set(bytes.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === DEFLATE_PIECE) {
        this.deflate.push(this.piece.slice(), false);
        this.filled = 0;
      }
    }
  }

  end(): void {
    this.deflate.push(this.piece.slice(0, this.filled), true);
    this.filled = 0;
  }
}

/** Random access to an archive's bytes: a file (the CLI) or an ArrayBuffer (the browser). */
export interface ArchiveSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export class ArchiveError extends Error {}

export interface ArchiveLimits {
  maxFiles: number;
  /** the most any one file may hold unpacked (checked from the directory before inflating, and while inflating) */
  maxFileBytes: number;
  /** files read whole (not streamed), and the most they may hold together (./limits.ts) */
  small?: { names: ReadonlySet<string>; maxBytes: number };
}

/**
 * Reads the directory and checks the archive's structure — nothing inflated yet. Returns the entries in order, or
 * throws ArchiveError naming what is not canonical.
 */
export async function archiveEntries(src: ArchiveSource, limits: ArchiveLimits): Promise<EntryRecord[]> {
  if (src.size < END_BYTES) throw new ArchiveError("not a zip archive (too short)");
  if (src.size > MAX_U32) throw new ArchiveError("over 4 GiB: not an evidence bundle (they never need ZIP64)");
  const endBytes = await src.read(src.size - END_BYTES, END_BYTES);
  const end = new DataView(endBytes.buffer, endBytes.byteOffset, END_BYTES);
  if (u32(end, 0) !== END_SIG)
    throw new ArchiveError("the archive does not end with its directory's end record (bytes after it, a comment, or not a zip archive)");
  const [disk, cdDisk, onDisk, count, cdSize, cdOffset, comment] = [
    u16(end, 4),
    u16(end, 6),
    u16(end, 8),
    u16(end, 10),
    u32(end, 12),
    u32(end, 16),
    u16(end, 20),
  ];
  if (disk || cdDisk || onDisk !== count || comment) throw new ArchiveError("the end record is not a single-disk archive's without a comment");
  if (count === 0) throw new ArchiveError("not an evidence bundle (no entries)");
  if (count > limits.maxFiles) throw new ArchiveError(`${count} entries: more than ${limits.maxFiles}`);
  if (cdOffset + cdSize !== src.size - END_BYTES) throw new ArchiveError("bytes between the central directory and its end record");
  if (cdSize > count * (CENTRAL_BYTES + 100)) throw new ArchiveError("the central directory is larger than its entries can be");
  const cd = await src.read(cdOffset, cdSize);
  const v = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const entries: EntryRecord[] = [];
  const names = new Set<string>();
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL_BYTES > cdSize || u32(v, at) !== CENTRAL_SIG) throw new ArchiveError(`directory entry ${i + 1} is not where the directory says`);
    const nameLen = u16(v, at + 28);
    const want = [VERSION, VERSION, 0, METHOD_DEFLATE, DOS_TIME, DOS_DATE];
    const got = [u16(v, at + 4), u16(v, at + 6), u16(v, at + 8), u16(v, at + 10), u16(v, at + 12), u16(v, at + 14)];
    if (got.some((g, k) => g !== want[k]))
      throw new ArchiveError(`directory entry ${i + 1}: version, flags, method or time are not the canonical ones (a data descriptor, another method or time)`);
    if (u16(v, at + 30) || u16(v, at + 32) || u16(v, at + 34) || u16(v, at + 36) || u32(v, at + 38))
      throw new ArchiveError(`directory entry ${i + 1}: an extra field, comment, disk or attributes the writer does not make`);
    if (at + CENTRAL_BYTES + nameLen > cdSize) throw new ArchiveError(`directory entry ${i + 1} runs past the directory`);
    const name = String.fromCharCode(...cd.subarray(at + CENTRAL_BYTES, at + CENTRAL_BYTES + nameLen));
    if (!ENTRY_NAME.test(name)) throw new ArchiveError(`${JSON.stringify(name.slice(0, 100))}: not a bundle's file name (flat, lower-case)`);
    if (names.has(name)) throw new ArchiveError(`${name} appears twice`);
    names.add(name);
    const e: EntryRecord = { name, crc: u32(v, at + 16), compressedSize: u32(v, at + 20), size: u32(v, at + 24), offset: u32(v, at + 42) };
    if (e.size > limits.maxFileBytes) throw new ArchiveError(`${name}: ${e.size} bytes unpacked, over the ${limits.maxFileBytes}-byte limit per file`);
    entries.push(e);
    at += CENTRAL_BYTES + nameLen;
  }
  if (at !== cdSize) throw new ArchiveError("bytes in the central directory after its last entry");
  if (limits.small) {
    const small = entries.filter((e) => limits.small!.names.has(e.name));
    const total = small.reduce((a, e) => a + e.size, 0);
    if (total > limits.small.maxBytes)
      throw new ArchiveError(
        `the files read whole (${small.map((e) => e.name).join(", ")}) hold ${total} bytes unpacked, over the ${limits.small.maxBytes}-byte limit`,
      );
  }
  // The entries tile the file: the first at byte 0, each right after the one before, the directory right after the last.
  let expected = 0;
  for (const e of entries) {
    if (e.offset !== expected) throw new ArchiveError(`${e.name}: its local header is not right after the previous entry (bytes before or between entries)`);
    const local = await src.read(e.offset, LOCAL_BYTES + e.name.length);
    const lv = new DataView(local.buffer, local.byteOffset, local.byteLength);
    if (local.length < LOCAL_BYTES || u32(lv, 0) !== LOCAL_SIG) throw new ArchiveError(`${e.name}: no local header where the directory says`);
    const lfields = [u16(lv, 4), u16(lv, 6), u16(lv, 8), u16(lv, 10), u16(lv, 12), u32(lv, 14), u32(lv, 18), u32(lv, 22), u16(lv, 26), u16(lv, 28)];
    const cfields = [VERSION, 0, METHOD_DEFLATE, DOS_TIME, DOS_DATE, e.crc, e.compressedSize, e.size, e.name.length, 0];
    if (lfields.some((f, k) => f !== cfields[k])) throw new ArchiveError(`${e.name}: its local header and its directory entry disagree`);
    if (String.fromCharCode(...local.subarray(LOCAL_BYTES)) !== e.name) throw new ArchiveError(`${e.name}: its local header names another file`);
    expected = e.offset + LOCAL_BYTES + e.name.length + e.compressedSize;
  }
  if (expected !== cdOffset) throw new ArchiveError("bytes between the last entry and the central directory");
  return entries;
}

/** What an entry's bytes go to as they are inflated (null from `open`: inflated and checked, not handed on). */
export type EntrySink = ((chunk: Uint8Array, final: boolean) => void | Promise<void>) | null;

const READ_PIECE = 256 * 1024;

/**
 * Reads a canonical archive entry by entry, in order: each entry's stored bytes are inflated (its CRC-32 and size
 * checked), handed to the sink `open` gives for it, and deflated again to check they are the canonical encoding.
 * Throws ArchiveError naming the entry and what is wrong. `entries` from archiveEntries (the structure checked).
 */
export async function readEntries(
  src: ArchiveSource,
  entries: readonly EntryRecord[],
  limits: ArchiveLimits,
  open: (e: EntryRecord) => EntrySink,
): Promise<void> {
  for (const e of entries) {
    const sink = open(e);
    const start = e.offset + LOCAL_BYTES + e.name.length;
    // The stored bytes, compared with what deflating the inflated bytes again gives (kept until matched).
    const stored: Uint8Array[] = [];
    let storedAt = 0;
    let mismatch = false;
    const compare = (chunk: Uint8Array) => {
      let i = 0;
      while (i < chunk.length && !mismatch) {
        const s = stored[0];
        if (!s) return void (mismatch = true);
        const n = Math.min(s.length - storedAt, chunk.length - i);
        for (let k = 0; k < n; k++) if (s[storedAt + k] !== chunk[i + k]) return void (mismatch = true);
        i += n;
        storedAt += n;
        if (storedAt === s.length) {
          stored.shift();
          storedAt = 0;
        }
      }
    };
    const again = new CanonicalDeflate(compare);
    let size = 0;
    let crc = 0;
    let ended = false;
    const handed: Uint8Array[] = [];
    const inflate = new Inflate((chunk, final) => {
      size += chunk.length;
      crc = crc32(chunk, crc);
      if (size > e.size || size > limits.maxFileBytes) throw new ArchiveError(`${e.name}: inflates beyond the ${e.size} bytes its headers declare`);
      again.push(chunk);
      if (sink) handed.push(chunk);
      if (final) ended = true;
    });
    for (let at = 0; at < e.compressedSize; at += READ_PIECE) {
      const piece = await src.read(start + at, Math.min(READ_PIECE, e.compressedSize - at));
      stored.push(piece);
      if (ended) throw new ArchiveError(`${e.name}: bytes after its deflate stream ends`);
      try {
        inflate.push(piece, at + piece.length >= e.compressedSize);
      } catch (err) {
        if (err instanceof ArchiveError) throw err;
        throw new ArchiveError(`${e.name}: not a valid deflate stream (${(err as Error).message})`);
      }
      while (handed.length) await sink!(handed.shift()!, false);
    }
    if (!ended) throw new ArchiveError(`${e.name}: its deflate stream ends early (truncated)`);
    if (size !== e.size || crc !== e.crc) throw new ArchiveError(`${e.name}: its CRC-32 or size differs from its headers (changed or corrupt)`);
    again.end();
    if (mismatch || stored.length)
      throw new ArchiveError(`${e.name}: not the canonical deflate encoding of its bytes (stored differently than the writer stores it)`);
    if (sink) await sink(new Uint8Array(0), true);
  }
}

/** An ArrayBuffer's bytes as an archive source (the browser; tests). */
export function bytesSource(bytes: Uint8Array): ArchiveSource {
  return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

/** A whole canonical archive in memory (small archives: tests, fixtures); the bundle writer streams the same format. */
export function canonicalZip(files: ReadonlyArray<readonly [string, Uint8Array]>): Uint8Array {
  const parts: Uint8Array[] = [];
  const records: EntryRecord[] = [];
  let offset = 0;
  for (const [name, bytes] of files) {
    if (!ENTRY_NAME.test(name)) throw new Error(`${name}: not a bundle's file name`);
    const compressed: Uint8Array[] = [];
    const d = new CanonicalDeflate((c) => compressed.push(c));
    d.push(bytes);
    d.end();
    const record = { name, crc: d.crc, compressedSize: d.compressedSize, size: d.size, offset };
    const head = localHeader(record);
    parts.push(head, ...compressed);
    records.push(record);
    offset += head.length + d.compressedSize;
  }
  parts.push(directoryAndEnd(records, offset));
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
