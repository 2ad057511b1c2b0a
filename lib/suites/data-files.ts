// Gathering the files of a suite-data import from paths a user names (files, or folders searched recursively for the
// names the suite reads), with sizes checked before anything is read.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { DATA_FILE_LIMITS } from "./data-limits";

export async function collectDataFiles(paths: readonly string[], accepts: (name: string) => boolean): Promise<Array<{ name: string; text: string }>> {
  const found: string[] = [];
  const walk = async (p: string, depth: number, named: boolean) => {
    const s = await stat(p).catch(() => null);
    if (!s) throw new Error(`${p}: no such file or folder`);
    if (s.isDirectory()) {
      if (depth > DATA_FILE_LIMITS.maxDepth) return;
      for (const e of (await readdir(p)).sort()) if (!e.startsWith(".")) await walk(path.join(p, e), depth + 1, false);
    } else if (s.isFile() && (named || accepts(path.basename(p)))) {
      if (s.size > DATA_FILE_LIMITS.maxFileBytes)
        throw new Error(`${p}: ${(s.size / 1024 / 1024).toFixed(1)} MB, more than ${DATA_FILE_LIMITS.maxFileBytes / 1024 / 1024} MB`);
      found.push(p);
      if (found.length > DATA_FILE_LIMITS.maxFiles) throw new Error(`more than ${DATA_FILE_LIMITS.maxFiles} files to read: name the files themselves`);
    }
  };
  for (const p of paths) await walk(p, 0, true);
  if (!found.length) throw new Error(`no file to read under ${paths.join(", ")}`);
  return Promise.all(found.map(async (p) => ({ name: path.basename(p), text: await readFile(p, "utf8") })));
}
