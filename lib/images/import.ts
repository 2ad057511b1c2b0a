// Importing images made elsewhere (models without an API, e.g. the paper's hand-placed Midjourney images): files
// or zip archives → (test, statistic, level) by manifest or file name → validated by content. No database; the
// caller stores only a plan without problems, so a rejected batch leaves nothing behind. Files come in memory
// (tests, small batches) or on disk (uploads): from disk, archives are read in slices and their entries spilled to
// files in `spillDir`, and each image is read alone while it is checked, so a commit holds one image at a time.
import { createHash } from "node:crypto";
import { closeSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import path from "node:path";
import { Unzip, UnzipInflate, unzipSync } from "fflate";
import { benchmark, findStatistic } from "../benchmark";
import { checkImageHeader, IMAGE_LIMITS, ImageValidationError, validateImageAsync, type ValidImage } from "./validate";
import {
  clutterReason,
  mapImportNames,
  mapSuiteNames,
  safeEntryName,
  type ImportProblem,
  type ImportTarget,
  type NameMapping,
  type StatisticResolver,
  type SuiteNameMapper,
} from "./import-names";

export const IMPORT_LIMITS = {
  maxFiles: 5000,
  /** total of all images once archives are expanded */
  maxTotalBytes: 1024 * 1024 * 1024,
  /** decoded pixels of all images of one import, summed from their headers before any is decoded (≈ 5,000 × 1.2 MP) */
  maxTotalPixels: 6_000_000_000,
} as const;

/** An uploaded file (or archive entry): its bytes in memory, or a file on disk and its size. */
export type UploadedFile = { name: string; bytes: Uint8Array } | { name: string; path: string; size: number };

/** A file's bytes (read from disk when it lives there: callers read one image at a time). */
function bytesOf(f: UploadedFile): Uint8Array {
  return "bytes" in f ? f.bytes : new Uint8Array(readFileSync(f.path));
}
const sizeOf = (f: UploadedFile) => ("bytes" in f ? f.bytes.length : f.size);

interface ImportItem {
  name: string;
  target: ImportTarget;
  image: ValidImage;
  /** where its bytes are (kept on disk for a disk-backed import) */
  source: UploadedFile;
  sha256: string;
}

export interface ImportPlan {
  items: ImportItem[];
  problems: ImportProblem[];
  /** entries that are not images and were left out on purpose (folders, macOS metadata, dotfiles), by name */
  skipped: ImportProblem[];
  mappedBy: NameMapping["mappedBy"];
}

/** The benchmark's statistics: ids for file names; ids or exact names for manifests. */
export function benchmarkStatistics(): StatisticResolver {
  return { ids: new Set(benchmark.statistics.map((s) => s.id)), resolve: (s) => findStatistic(s)?.id };
}

function head(f: UploadedFile, n: number): Uint8Array {
  if ("bytes" in f) return f.bytes.subarray(0, n);
  const buf = new Uint8Array(n);
  const fd = openSync(f.path, "r");
  try {
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}
const isZip = (f: UploadedFile) => {
  const b = head(f, 4);
  return b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
};

/** An archive's compressed bytes in ZIP_FEED slices (from memory, or read from disk a slice at a time). */
function* slices(f: UploadedFile): Generator<{ chunk: Uint8Array; last: boolean }> {
  if ("bytes" in f) {
    for (let i = 0; i < f.bytes.length; i += ZIP_FEED) yield { chunk: f.bytes.subarray(i, i + ZIP_FEED), last: i + ZIP_FEED >= f.bytes.length };
    return;
  }
  const fd = openSync(f.path, "r");
  try {
    const buf = new Uint8Array(ZIP_FEED);
    for (let at = 0; at < f.size;) {
      const n = readSync(fd, buf, 0, ZIP_FEED, at);
      if (n <= 0) break;
      at += n;
      yield { chunk: buf.slice(0, n), last: at >= f.size };
    }
  } finally {
    closeSync(fd);
  }
}

/** Compressed bytes handed to the inflater at a time: bounds what one step can expand to (≤ ~1,000× of it). */
const ZIP_FEED = 16 * 1024;

/**
 * Expands zip archives entry by entry, never trusting the archive: an entry whose declared size is over the limit is
 * not inflated at all; while inflating, an entry is stopped as soon as it passes the per-image limit or its own
 * declared size (a forged header), and the archive as soon as all entries pass the import's total. Compressed data
 * is fed in small slices, so a zip bomb costs at most a few MiB before it is refused. Entry names are checked for
 * traversal (.., absolute paths, backslashes).
 */
export function expandArchives(
  files: UploadedFile[],
  { spillDir }: { spillDir?: string } = {},
): { files: UploadedFile[]; problems: ImportProblem[]; skipped: ImportProblem[] } {
  let spilled = 0;
  const out: UploadedFile[] = [];
  const problems: ImportProblem[] = [];
  const skipped: ImportProblem[] = [];
  let total = 0;
  const mib = (n: number) => `${n / 1024 / 1024} MiB`;
  for (const f of files) {
    if (!isZip(f)) {
      out.push(f);
      continue;
    }
    const prefix = `${f.name}: `;
    let stopArchive: string | null = null;
    const done: UploadedFile[] = [];
    const unzip = new Unzip((entry) => {
      if (entry.name.endsWith("/")) return;
      const why = clutterReason(entry.name);
      if (why) {
        skipped.push({ name: prefix + entry.name, message: why });
        return;
      }
      let name: string;
      try {
        name = safeEntryName(entry.name);
      } catch (e) {
        problems.push({ name: prefix + entry.name, message: (e as Error).message });
        return;
      }
      const declared = entry.originalSize;
      if (declared !== undefined && declared > IMAGE_LIMITS.maxBytes) {
        problems.push({ name: prefix + entry.name, message: `larger than ${mib(IMAGE_LIMITS.maxBytes)} uncompressed` });
        return;
      }
      const chunks: Uint8Array[] = [];
      // Spilled to disk as it inflates (a disk-backed import): memory holds one slice, not the entry.
      const file = spillDir ? path.join(spillDir, `entry-${++spilled}`) : null;
      const fd = file ? openSync(file, "w", 0o600) : null;
      const close = () => fd !== null && closeSync(fd);
      let size = 0;
      let dead = false;
      entry.ondata = (err, data, final) => {
        if (dead) return;
        if (err) {
          dead = true;
          close();
          problems.push({ name: prefix + entry.name, message: `cannot be inflated: ${err.message}` });
          return;
        }
        size += data.length;
        total += data.length;
        const limit = Math.min(IMAGE_LIMITS.maxBytes, declared !== undefined && declared > 0 ? declared : IMAGE_LIMITS.maxBytes);
        if (size > limit) {
          dead = true;
          close();
          entry.terminate();
          problems.push({
            name: prefix + entry.name,
            message: size > IMAGE_LIMITS.maxBytes ? `larger than ${mib(IMAGE_LIMITS.maxBytes)} uncompressed` : "inflates beyond the size its header declares",
          });
          // Stop reading the archive: its remaining bytes would still be inflated to find the next entry, and the
          // batch is refused anyway (one problem stores nothing).
          stopArchive = "not read further after an entry that outgrew its limits";
          return;
        }
        if (total > IMPORT_LIMITS.maxTotalBytes) {
          dead = true;
          close();
          entry.terminate();
          stopArchive = `expands to more than ${IMPORT_LIMITS.maxTotalBytes / 1024 ** 3} GiB`;
          return;
        }
        if (fd !== null) writeSync(fd, data);
        else chunks.push(data);
        if (final) {
          close();
          done.push(file ? { name, path: file, size } : { name, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) });
        }
      };
      entry.start();
    });
    unzip.register(UnzipInflate);
    try {
      for (const { chunk, last } of slices(f)) {
        if (stopArchive) break;
        unzip.push(chunk, last);
      }
    } catch (e) {
      problems.push({ name: f.name, message: `not a readable zip archive: ${(e as Error).message}` });
      continue;
    }
    if (stopArchive) {
      problems.push({ name: f.name, message: stopArchive });
      continue;
    }
    out.push(...done);
  }
  return { files: out, problems, skipped };
}

/** Entry names of a zip without inflating anything (for the preview and for reporting skipped entries). */
export function listZipNames(bytes: Uint8Array): string[] {
  const names: string[] = [];
  unzipSync(bytes, {
    filter: (e) => {
      names.push(e.name);
      return false;
    },
  });
  return names;
}

/**
 * The whole import, checked: every file mapped (manifest.json when present, else the naming scheme), every image
 * valid by content, no content twice. Problems are collected for every file, not just the first.
 */
export async function planImport(
  uploaded: UploadedFile[],
  statistics: StatisticResolver | SuiteNameMapper,
  opts: { spillDir?: string; validate?: (bytes: Uint8Array) => Promise<ValidImage> } = {},
): Promise<ImportPlan> {
  const expanded = expandArchives(uploaded, { spillDir: opts.spillDir });
  const validate = opts.validate ?? validateImageAsync;
  const byName = new Map(expanded.files.map((f) => [f.name, f]));
  const mapping =
    "target" in statistics
      ? mapSuiteNames([...byName.keys()], statistics)
      : mapImportNames(
          [...byName.keys()],
          (name) => (sizeOf(byName.get(name)!) > 4 * 1024 * 1024 ? "" : new TextDecoder().decode(bytesOf(byName.get(name)!))),
          statistics,
        );
  const problems = [...expanded.problems, ...mapping.problems];
  if (mapping.targets.size > IMPORT_LIMITS.maxFiles)
    problems.push({ name: "(batch)", message: `${mapping.targets.size} images; at most ${IMPORT_LIMITS.maxFiles} per import` });
  // The decoding work of the whole import is bounded from the headers first: nothing is decoded past the budget.
  let pixels = 0;
  for (const name of mapping.targets.keys()) {
    try {
      const h = checkImageHeader(head(byName.get(name)!, 64 * 1024), sizeOf(byName.get(name)!));
      pixels += h.width * h.height;
    } catch {
      // reported with the file below
    }
  }
  if (pixels > IMPORT_LIMITS.maxTotalPixels) {
    problems.push({
      name: "(batch)",
      message: `${(pixels / 1e9).toFixed(2)} G pixels in all; at most ${IMPORT_LIMITS.maxTotalPixels / 1e9} G pixels per import: split it`,
    });
    return { items: [], problems, skipped: [...expanded.skipped, ...mapping.skipped], mappedBy: mapping.mappedBy };
  }
  const items: ImportItem[] = [];
  const seen = new Map<string, string>();
  for (const [name, target] of mapping.targets) {
    const source = byName.get(name)!;
    if (sizeOf(source) > IMAGE_LIMITS.maxBytes) {
      problems.push({ name, message: `larger than ${IMAGE_LIMITS.maxBytes / 2 ** 20} MiB` });
      continue;
    }
    const bytes = bytesOf(source);
    let image: ValidImage;
    try {
      image = await validate(bytes);
    } catch (e) {
      if (!(e instanceof ImageValidationError)) throw e;
      problems.push({ name, message: e.message });
      continue;
    }
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const twin = seen.get(sha256);
    if (twin) {
      problems.push({ name, message: `same content as ${twin}` });
      continue;
    }
    seen.set(sha256, name);
    items.push({ name, target, image, source, sha256 });
  }
  if (!items.length && !problems.length) problems.push({ name: "(batch)", message: "no images to import" });
  return { items, problems, skipped: [...expanded.skipped, ...mapping.skipped], mappedBy: mapping.mappedBy };
}
