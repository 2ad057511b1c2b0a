// Importing images made elsewhere (models without an API, e.g. the paper's hand-placed Midjourney images): files
// or zip archives → (test, statistic, level) by manifest or file name → validated by content. Pure: no disk, no
// database; the caller stores only a plan without problems, so a rejected batch leaves nothing behind.
import { createHash } from "node:crypto";
import { Unzip, UnzipInflate, unzipSync } from "fflate";
import { benchmark, findStatistic } from "../benchmark";
import { checkImageHeader, IMAGE_LIMITS, ImageValidationError, validateImageAsync, type ValidImage } from "./validate";
import { clutterReason, mapImportNames, mapSuiteNames, safeEntryName, type ImportProblem, type ImportTarget, type NameMapping, type StatisticResolver, type SuiteNameMapper } from "./import-names";

export const IMPORT_LIMITS = {
  maxFiles: 5000,
  /** total of all images once archives are expanded */
  maxTotalBytes: 1024 * 1024 * 1024,
  /** decoded pixels of all images of one import, summed from their headers before any is decoded (≈ 5,000 × 1.2 MP) */
  maxTotalPixels: 6_000_000_000,
} as const;

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

export interface ImportItem {
  name: string;
  target: ImportTarget;
  image: ValidImage;
  bytes: Uint8Array;
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

const isZip = (f: UploadedFile) => f.bytes[0] === 0x50 && f.bytes[1] === 0x4b && f.bytes[2] === 0x03 && f.bytes[3] === 0x04;

/** Compressed bytes handed to the inflater at a time: bounds what one step can expand to (≤ ~1,000× of it). */
const ZIP_FEED = 16 * 1024;

/**
 * Expands zip archives entry by entry, never trusting the archive: an entry whose declared size is over the limit is
 * not inflated at all; while inflating, an entry is stopped as soon as it passes the per-image limit or its own
 * declared size (a forged header), and the archive as soon as all entries pass the import's total. Compressed data
 * is fed in small slices, so a zip bomb costs at most a few MiB before it is refused. Entry names are checked for
 * traversal (.., absolute paths, backslashes).
 */
export function expandArchives(files: UploadedFile[]): { files: UploadedFile[]; problems: ImportProblem[]; skipped: ImportProblem[] } {
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
      let size = 0;
      let dead = false;
      entry.ondata = (err, data, final) => {
        if (dead) return;
        if (err) {
          dead = true;
          problems.push({ name: prefix + entry.name, message: `cannot be inflated: ${err.message}` });
          return;
        }
        size += data.length;
        total += data.length;
        const limit = Math.min(IMAGE_LIMITS.maxBytes, declared !== undefined && declared > 0 ? declared : IMAGE_LIMITS.maxBytes);
        if (size > limit) {
          dead = true;
          entry.terminate();
          problems.push({ name: prefix + entry.name, message: size > IMAGE_LIMITS.maxBytes ? `larger than ${mib(IMAGE_LIMITS.maxBytes)} uncompressed` : "inflates beyond the size its header declares" });
          // Stop reading the archive: its remaining bytes would still be inflated to find the next entry, and the
          // batch is refused anyway (one problem stores nothing).
          stopArchive = "not read further after an entry that outgrew its limits";
          return;
        }
        if (total > IMPORT_LIMITS.maxTotalBytes) {
          dead = true;
          entry.terminate();
          stopArchive = `expands to more than ${IMPORT_LIMITS.maxTotalBytes / 1024 ** 3} GiB`;
          return;
        }
        chunks.push(data);
        if (final) done.push({ name, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) });
      };
      entry.start();
    });
    unzip.register(UnzipInflate);
    try {
      for (let i = 0; i < f.bytes.length && !stopArchive; i += ZIP_FEED) unzip.push(f.bytes.subarray(i, i + ZIP_FEED), i + ZIP_FEED >= f.bytes.length);
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
export async function planImport(uploaded: UploadedFile[], statistics: StatisticResolver | SuiteNameMapper): Promise<ImportPlan> {
  const expanded = expandArchives(uploaded);
  const byName = new Map(expanded.files.map((f) => [f.name, f]));
  const mapping = "target" in statistics ? mapSuiteNames([...byName.keys()], statistics) : mapImportNames([...byName.keys()], (name) => new TextDecoder().decode(byName.get(name)!.bytes), statistics);
  const problems = [...expanded.problems, ...mapping.problems];
  if (mapping.targets.size > IMPORT_LIMITS.maxFiles) problems.push({ name: "(batch)", message: `${mapping.targets.size} images; at most ${IMPORT_LIMITS.maxFiles} per import` });
  // The decoding work of the whole import is bounded from the headers first: nothing is decoded past the budget.
  let pixels = 0;
  for (const name of mapping.targets.keys()) {
    try {
      const h = checkImageHeader(byName.get(name)!.bytes);
      pixels += h.width * h.height;
    } catch {
      // reported with the file below
    }
  }
  if (pixels > IMPORT_LIMITS.maxTotalPixels) {
    problems.push({ name: "(batch)", message: `${(pixels / 1e9).toFixed(2)} G pixels in all; at most ${IMPORT_LIMITS.maxTotalPixels / 1e9} G pixels per import: split it` });
    return { items: [], problems, skipped: [...expanded.skipped, ...mapping.skipped], mappedBy: mapping.mappedBy };
  }
  const items: ImportItem[] = [];
  const seen = new Map<string, string>();
  for (const [name, target] of mapping.targets) {
    const bytes = byName.get(name)!.bytes;
    let image: ValidImage;
    try {
      image = await validateImageAsync(bytes);
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
    items.push({ name, target, image, bytes, sha256 });
  }
  if (!items.length && !problems.length) problems.push({ name: "(batch)", message: "no images to import" });
  return { items, problems, skipped: [...expanded.skipped, ...mapping.skipped], mappedBy: mapping.mappedBy };
}
