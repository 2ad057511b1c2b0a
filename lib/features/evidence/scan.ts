// Reading a bundle as a stream (fflate's Unzip): entries are inflated chunk by chunk as the file is read, so a
// paper-size run's bundle is checked in bounded memory — each entry's bytes are hashed as they come, counted against
// the per-file limit (the streamed sizes are not known before), and handed on; nothing is kept unless asked for.
import { createReadStream } from "node:fs";
import { Unzip, UnzipInflate } from "fflate";

export interface EntryHandler {
  /** called once per entry before its data; return false to skip the entry's bytes */
  open(name: string): boolean;
  data(name: string, chunk: Uint8Array, final: boolean): void;
}

class ScanLimitError extends Error {}

/**
 * Streams every entry of the archive to `handler`; `between` runs after each read chunk's data was handed on (the
 * place to await a database write). Throws on a corrupt archive, on more than `maxFiles` entries, or an entry over
 * `maxFileBytes`.
 */
export async function scanZip(
  file: string,
  handler: EntryHandler,
  limits: { maxFiles: number; maxFileBytes: number },
  between: () => Promise<void> = async () => {},
): Promise<void> {
  let error: Error | null = null;
  let files = 0;
  const unzip = new Unzip((entry) => {
    files++;
    if (files > limits.maxFiles) {
      error = new ScanLimitError(`more than ${limits.maxFiles} entries`);
      return;
    }
    if (!handler.open(entry.name)) return;
    let bytes = 0;
    entry.ondata = (err, chunk, final) => {
      if (error) return;
      if (err) {
        error = err;
        return;
      }
      bytes += chunk.length;
      if (bytes > limits.maxFileBytes) {
        error = new ScanLimitError(`${entry.name}: over the ${limits.maxFileBytes}-byte limit per file`);
        entry.terminate();
        return;
      }
      handler.data(entry.name, chunk, final);
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    unzip.push(chunk as Buffer);
    if (error) throw error;
    await between();
    if (error) throw error;
  }
  unzip.push(new Uint8Array(0), true);
  if (error) throw error;
  await between();
}
