// Reading a bundle from a file, in bounded memory, through the one archive reader the browser uses too
// (lib/evidence/zip.ts): the archive's structure is checked first from its directory and headers (canonical, every
// directory entry agreeing with its local header, the entries tiling the file), then entries are inflated piece by
// piece in order — each entry's CRC-32, size and canonical encoding checked — and handed on; nothing is kept unless
// asked for.
import { open } from "node:fs/promises";
import { archiveEntries, readEntries, type ArchiveSource } from "../../evidence/zip";

export interface EntryHandler {
  /** called once per entry before its data; return false to skip the entry's bytes (still inflated and checked) */
  open(name: string): boolean;
  data(name: string, chunk: Uint8Array, final: boolean): void;
}

/**
 * Streams every entry of the archive to `handler`; `between` runs after each piece's data was handed on (the place
 * to await a database write). Throws (ArchiveError) on an archive that is not canonical, more than `maxFiles`
 * entries, or an entry over `maxFileBytes`.
 */
export async function scanZip(
  file: string,
  handler: EntryHandler,
  limits: { maxFiles: number; maxFileBytes: number },
  between: () => Promise<void> = async () => {},
): Promise<void> {
  const fh = await open(file, "r");
  try {
    const size = (await fh.stat()).size;
    const src: ArchiveSource = {
      size,
      read: async (offset, length) => {
        const buf = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
        return buf.subarray(0, bytesRead);
      },
    };
    const entries = await archiveEntries(src, limits);
    await readEntries(src, entries, limits, (e) =>
      handler.open(e.name)
        ? async (chunk, final) => {
            handler.data(e.name, chunk, final);
            await between();
          }
        : null,
    );
  } finally {
    await fh.close();
  }
}
