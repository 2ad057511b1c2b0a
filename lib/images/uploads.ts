// Uploads stream to disk, never into memory: an import is a session folder under FOF_DATA_DIR/tmp/ that receives
// one file per request (size checked before and while writing), is committed once (a second commit is refused), and
// is removed after its commit — or by the sweep at start when a crash left it behind. Files reach the content store
// only when a commit has checked the whole batch.
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { safeEntryName } from "./import-names";
import { IMPORT_LIMITS, type UploadedFile } from "./import";
import { DomainError } from "../core/errors";

/** The largest single upload: a zip of a whole import (images are checked against their own limit on commit). */
const MAX_UPLOAD_FILE_BYTES = IMPORT_LIMITS.maxTotalBytes;
const ID = /^up_[A-Za-z0-9_-]{32}$/;

export interface UploadMeta {
  model: string;
  /** the suite the images belong to (absent in uploads opened before suites could be imported: FACT-OR-FAIR) */
  suite?: string;
  runId: string | null;
  runName: string | null;
  /** what labels the new run's images ("faces" when absent; "clip" only for suites with a CLIP instrument) */
  instrument?: "faces" | "clip";
  createdAt: string;
  files: Array<{ name: string; stored: string; bytes: number }>;
}

const root = (dataDir: string) => path.join(dataDir, "tmp", "uploads");
function dirOf(dataDir: string, id: string): string {
  if (!ID.test(id)) throw new DomainError("not_found", "upload not found");
  return path.join(root(dataDir), id);
}

function readMeta(dir: string): UploadMeta {
  try {
    return JSON.parse(readFileSync(path.join(dir, "meta.json"), "utf8")) as UploadMeta;
  } catch {
    throw new DomainError("not_found", "upload not found (it may have been imported already or expired)");
  }
}

function writeMeta(dir: string, meta: UploadMeta) {
  const tmp = path.join(dir, `meta.${randomBytes(4).toString("hex")}.json`);
  writeFileSync(tmp, JSON.stringify(meta));
  renameSync(tmp, path.join(dir, "meta.json"));
}

/** Opens an upload session for one import. */
export function createUpload(dataDir: string, meta: Pick<UploadMeta, "model" | "suite" | "runId" | "runName" | "instrument">): string {
  const id = `up_${randomBytes(24).toString("base64url")}`;
  const dir = dirOf(dataDir, id);
  mkdirSync(path.join(dir, "files"), { recursive: true });
  writeMeta(dir, { ...meta, createdAt: new Date().toISOString(), files: [] });
  return id;
}

/**
 * Streams one file of an upload to disk: refused before reading when its declared length is over the limit, and
 * stopped while writing when it passes the limit or the session's total; the name is checked like an archive entry.
 */
export async function receiveFile(
  dataDir: string,
  id: string,
  name: string,
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | null,
): Promise<{ name: string; bytes: number }> {
  const dir = dirOf(dataDir, id);
  const meta = readMeta(dir);
  let safe: string;
  try {
    safe = safeEntryName(name);
  } catch (e) {
    throw new DomainError("invalid", `${name}: ${(e as Error).message}`);
  }
  if (meta.files.some((f) => f.name === safe)) throw new DomainError("conflict", `${safe} was already uploaded in this import`);
  if (meta.files.length >= IMPORT_LIMITS.maxFiles) throw new DomainError("too_large", `at most ${IMPORT_LIMITS.maxFiles} files per import`);
  const used = meta.files.reduce((a, f) => a + f.bytes, 0);
  const room = Math.min(MAX_UPLOAD_FILE_BYTES, IMPORT_LIMITS.maxTotalBytes - used);
  if (declaredLength !== null && declaredLength > room)
    throw new DomainError("too_large", `${safe}: too large (the import may hold ${IMPORT_LIMITS.maxTotalBytes / 1024 ** 3} GiB in all)`);
  if (!body) throw new DomainError("invalid", `${safe}: empty body`);
  const stored = `${meta.files.length}-${randomBytes(6).toString("hex")}.part`;
  const target = path.join(dir, "files", stored);
  let size = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > room) cb(new DomainError("too_large", `${safe}: too large (the import may hold ${IMPORT_LIMITS.maxTotalBytes / 1024 ** 3} GiB in all)`));
      else cb(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>), limiter, createWriteStream(target));
  } catch (e) {
    rmSync(target, { force: true });
    throw e instanceof DomainError ? e : new DomainError("invalid", `${safe}: upload interrupted (${(e as Error).message})`);
  }
  // Re-read: another request of the same session may have added a file meanwhile.
  const now = readMeta(dir);
  now.files.push({ name: safe, stored, bytes: size });
  writeMeta(dir, now);
  return { name: safe, bytes: size };
}

/**
 * Takes an upload for its commit: the session is renamed first, so a second commit (a double click, a replayed
 * request) finds nothing and is refused. Returns its files and a cleanup to run after the commit.
 */
export function takeUpload(dataDir: string, id: string): { meta: UploadMeta; files: UploadedFile[]; workDir: string; cleanup: () => void } {
  const dir = dirOf(dataDir, id);
  const taken = `${dir}.committing`;
  try {
    renameSync(dir, taken);
  } catch {
    throw new DomainError("conflict", "this upload was already imported (or has expired); choose the files again");
  }
  const meta = readMeta(taken);
  // The files stay on disk: the commit reads them one at a time (archives in slices), never all at once.
  const files = meta.files.map((f) => ({ name: f.name, path: path.join(taken, "files", f.stored), size: statSync(path.join(taken, "files", f.stored)).size }));
  // Where archive entries are spilled while they are checked: inside the data directory, so storing them is a rename.
  const workDir = path.join(taken, "expanded");
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  return { meta, files, workDir, cleanup: () => rmSync(taken, { recursive: true, force: true }) };
}

/** Removes upload sessions older than `maxAgeMs` (abandoned, or left by a crash mid-commit). */
export function sweepUploads(dataDir: string, maxAgeMs = 24 * 3600_000): number {
  const dir = root(dataDir);
  if (!existsSync(dir)) return 0;
  let removed = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > maxAgeMs || name.endsWith(".committing")) {
        // A ".committing" folder outlives its commit only when the process died during it.
        if (name.endsWith(".committing") && Date.now() - statSync(p).mtimeMs < 10 * 60_000) continue;
        rmSync(p, { recursive: true, force: true });
        removed++;
      }
    } catch {
      /* gone meanwhile */
    }
  }
  return removed;
}
