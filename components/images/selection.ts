// Reading a selection of images in the browser before anything is uploaded: zip listings without inflating images,
// the mapping of names to prompts (the suite's own rule, or FACT-OR-FAIR's names and manifest), and files of the
// same content under two names.
import { unzipSync } from "fflate";
import {
  ImportNameError,
  mapImportNames,
  mapSuiteNames,
  MANIFEST_NAME,
  type ImportProblem,
  type ImportTarget,
  type NameMapping,
} from "@/lib/images/import-names";

export interface Picked {
  file: File;
  path: string;
}

/** What the preview knows about a zip without inflating its images: entry names, and the manifest's text. */
async function zipListing(file: File): Promise<{ names: string[]; manifests: Map<string, string> }> {
  const names: string[] = [];
  const entries = unzipSync(new Uint8Array(await file.arrayBuffer()), {
    filter: (e) => {
      names.push(e.name);
      return e.name === MANIFEST_NAME || e.name.endsWith(`/${MANIFEST_NAME}`);
    },
  });
  return { names, manifests: new Map(Object.entries(entries).map(([k, v]) => [k, new TextDecoder().decode(v)])) };
}

const isZip = (p: Picked) => /\.zip$/i.test(p.path);

/**
 * Same content under two names — loose files and entries inside zips alike — found in the browser (SHA-256) before
 * anything is uploaded. Only files whose size another file shares are read and hashed (zip entries: their sizes from
 * the central directory, then only those entries inflated).
 */
async function duplicateContent(files: Picked[]): Promise<ImportProblem[]> {
  const isImage = (name: string) => !name.endsWith("/") && !name.endsWith(MANIFEST_NAME);
  const sizes = new Map<number, number>();
  const count = (n: number) => sizes.set(n, (sizes.get(n) ?? 0) + 1);
  const zips: Array<{ p: Picked; bytes: Uint8Array; entries: Array<{ name: string; size: number }> }> = [];
  for (const p of files) {
    if (p.path.endsWith(MANIFEST_NAME)) continue;
    if (!isZip(p)) {
      count(p.file.size);
      continue;
    }
    const bytes = new Uint8Array(await p.file.arrayBuffer());
    const entries: Array<{ name: string; size: number }> = [];
    unzipSync(bytes, {
      filter: (e) => {
        if (isImage(e.name)) entries.push({ name: e.name, size: e.originalSize });
        return false; // sizes only: nothing inflated
      },
    });
    for (const e of entries) count(e.size);
    zips.push({ p, bytes, entries });
  }
  const shared = (n: number) => (sizes.get(n) ?? 0) > 1;
  const seen = new Map<string, string>();
  const problems: ImportProblem[] = [];
  const check = async (name: string, data: BufferSource) => {
    const digest = await crypto.subtle.digest("SHA-256", data);
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const twin = seen.get(hex);
    if (twin) problems.push({ name, message: `same content as ${twin}` });
    else seen.set(hex, name);
  };
  for (const p of files) if (!isZip(p) && !p.path.endsWith(MANIFEST_NAME) && shared(p.file.size)) await check(p.path, await p.file.arrayBuffer());
  for (const z of zips) {
    const wanted = new Set(z.entries.filter((e) => shared(e.size)).map((e) => e.name));
    if (!wanted.size) continue;
    const inflated = unzipSync(z.bytes, { filter: (e) => wanted.has(e.name) });
    for (const [name, data] of Object.entries(inflated)) await check(`${z.p.path}/${name}`, data as Uint8Array<ArrayBuffer>);
  }
  return problems;
}

type Resolver = { ids: Set<string>; resolve: (s: string) => string | undefined };

/** The selection's names mapped to prompts, with every problem found in the browser (nothing is uploaded yet). */
export async function readSelection(files: Picked[], suiteNaming: string | null, resolver: Resolver): Promise<NameMapping> {
  const names: string[] = [];
  const manifests = new Map<string, string>();
  for (const p of files) {
    if (isZip(p)) {
      const z = await zipListing(p.file);
      names.push(...z.names.filter((n) => !n.endsWith("/")));
      for (const [k, v] of z.manifests) manifests.set(k, v);
    } else {
      names.push(p.path);
      if (p.path === MANIFEST_NAME || p.path.endsWith(`/${MANIFEST_NAME}`)) manifests.set(p.path, await p.file.text());
    }
  }
  // Another suite's rule needs its content, which stays on the server: the preview groups files by their
  // prompt folder, and the server checks every name when the batch is stored (all or nothing).
  const mapping = suiteNaming
    ? mapSuiteNames(names, {
        naming: suiteNaming,
        target: (n) => {
          const parts = n.split("/");
          if (parts.length < 2) throw new ImportNameError(`not in a prompt folder (${suiteNaming})`);
          return { test: "", statisticId: parts[parts.length - 2], level: "" };
        },
      })
    : mapImportNames(names, (n) => manifests.get(n) ?? "", resolver);
  mapping.problems.push(...(await duplicateContent(files)));
  return mapping;
}

/** Images per prompt, for the preview table. */
export function mappingCells(preview: NameMapping | null) {
  const counts = new Map<string, { target: ImportTarget; n: number }>();
  for (const t of preview?.targets.values() ?? []) {
    const k = `${t.test}|${t.statisticId}|${t.level}`;
    counts.set(k, { target: t, n: (counts.get(k)?.n ?? 0) + 1 });
  }
  return [...counts.values()].sort(
    (a, b) =>
      a.target.statisticId.localeCompare(b.target.statisticId) || a.target.test.localeCompare(b.target.test) || a.target.level.localeCompare(b.target.level),
  );
}
