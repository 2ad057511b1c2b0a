// Importing images made elsewhere (models without an API, e.g. the paper's hand-placed Midjourney images): files
// or zip archives → (test, statistic, level) by manifest or file name → validated by content. Pure: no disk, no
// database; the caller stores only a plan without problems, so a rejected batch leaves nothing behind.
import { createHash } from "node:crypto";
import { unzipSync } from "fflate";
import { benchmark, findStatistic } from "../benchmark";
import { IMAGE_LIMITS, ImageValidationError, validateImage, type ValidImage } from "./validate";
import { clutterReason, mapImportNames, safeEntryName, type ImportProblem, type ImportTarget, type NameMapping, type StatisticResolver } from "./import-names";

export const IMPORT_LIMITS = {
  maxFiles: 5000,
  /** total of all images once archives are expanded */
  maxTotalBytes: 1024 * 1024 * 1024,
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

/** Expands zip archives (entry names checked for traversal, sizes bounded before inflating). */
export function expandArchives(files: UploadedFile[]): { files: UploadedFile[]; problems: ImportProblem[]; skipped: ImportProblem[] } {
  const out: UploadedFile[] = [];
  const problems: ImportProblem[] = [];
  const skipped: ImportProblem[] = [];
  let total = 0;
  for (const f of files) {
    if (!isZip(f)) {
      out.push(f);
      continue;
    }
    const prefix = `${f.name}: `;
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(f.bytes, {
        filter: (e) => {
          // Declared sizes are checked before anything is inflated; a zip bomb is refused, not expanded.
          if (e.originalSize > IMAGE_LIMITS.maxBytes && !clutterReason(e.name)) {
            problems.push({ name: prefix + e.name, message: `larger than ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MiB uncompressed` });
            return false;
          }
          total += e.originalSize;
          return total <= IMPORT_LIMITS.maxTotalBytes && !clutterReason(e.name);
        },
      });
    } catch (e) {
      problems.push({ name: f.name, message: `not a readable zip archive: ${(e as Error).message}` });
      continue;
    }
    if (total > IMPORT_LIMITS.maxTotalBytes) {
      problems.push({ name: f.name, message: `expands to more than ${IMPORT_LIMITS.maxTotalBytes / 1024 ** 3} GiB` });
      continue;
    }
    // Names the filter skipped are reported too, so nothing disappears silently.
    for (const name of listZipNames(f.bytes)) {
      const why = clutterReason(name);
      if (why && !name.endsWith("/")) skipped.push({ name: prefix + name, message: why });
    }
    for (const [name, bytes] of Object.entries(entries)) {
      try {
        out.push({ name: safeEntryName(name), bytes });
      } catch (e) {
        problems.push({ name: prefix + name, message: (e as Error).message });
      }
    }
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
export function planImport(uploaded: UploadedFile[], statistics: StatisticResolver): ImportPlan {
  const expanded = expandArchives(uploaded);
  const byName = new Map(expanded.files.map((f) => [f.name, f]));
  const mapping = mapImportNames([...byName.keys()], (name) => new TextDecoder().decode(byName.get(name)!.bytes), statistics);
  const problems = [...expanded.problems, ...mapping.problems];
  if (mapping.targets.size > IMPORT_LIMITS.maxFiles) problems.push({ name: "(batch)", message: `${mapping.targets.size} images; at most ${IMPORT_LIMITS.maxFiles} per import` });
  const items: ImportItem[] = [];
  const seen = new Map<string, string>();
  for (const [name, target] of mapping.targets) {
    const bytes = byName.get(name)!.bytes;
    let image: ValidImage;
    try {
      image = validateImage(bytes);
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
