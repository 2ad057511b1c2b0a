// The bundle's canonical archive (lib/evidence/zip.ts) written to a file as its entries stream in: each entry's
// deflate stream is written where its data goes, then its local header is written in front of it (the sizes and
// CRC-32 known by then: no data descriptor), in bounded memory whatever the entry's size. Server-only.
import { open, type FileHandle } from "node:fs/promises";
import { CanonicalDeflate, directoryAndEnd, localHeader, ENTRY_NAME, type EntryRecord } from "../../evidence/zip";

export class CanonicalZipFile {
  private readonly entries: EntryRecord[] = [];
  private offset = 0;

  private constructor(private readonly fh: FileHandle) {}

  /** A new archive at `file` (created, owner-only; refused if it exists). */
  static async create(file: string): Promise<CanonicalZipFile> {
    return new CanonicalZipFile(await open(file, "wx", 0o600));
  }

  /** One entry from its bytes as they come (strings as UTF-8); returns its size. */
  async add(name: string, parts: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<number> {
    if (!ENTRY_NAME.test(name) || this.entries.some((e) => e.name === name)) throw new Error(`${name}: not a new bundle file name`);
    const dataAt = this.offset + 30 + name.length;
    let at = dataAt;
    let writes: Promise<unknown> = Promise.resolve();
    const deflate = new CanonicalDeflate((chunk) => {
      const position = at;
      at += chunk.length;
      const copy = chunk.slice();
      writes = writes.then(() => this.fh.write(copy, 0, copy.length, position));
    });
    for await (const part of parts) {
      deflate.push(part);
      // waits for the disk now and then, so compressed bytes never pile up in memory
      await writes;
    }
    deflate.end();
    await writes;
    const record: EntryRecord = { name, crc: deflate.crc, compressedSize: deflate.compressedSize, size: deflate.size, offset: this.offset };
    const head = localHeader(record);
    await this.fh.write(head, 0, head.length, this.offset);
    this.entries.push(record);
    this.offset = dataAt + deflate.compressedSize;
    return deflate.size;
  }

  /** Writes the directory and end record and closes the file; returns the archive's size. */
  async end(): Promise<number> {
    const tail = directoryAndEnd(this.entries, this.offset);
    await this.fh.write(tail, 0, tail.length, this.offset);
    await this.fh.close();
    return this.offset + tail.length;
  }

  async abort(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}
