// Content-addressed image storage under FOF_DATA_DIR/images: the file name is the sha256 of the bytes, so a file
// is stored once however often it is imported, and a stored path can always be re-verified.
import { createHash, randomUUID } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ValidImage } from "./validate";

export function imageRelPath(sha256: string, ext: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256) || !/^(png|jpg|webp)$/.test(ext)) throw new Error("invalid image address");
  return path.posix.join("images", sha256.slice(0, 2), `${sha256}.${ext}`);
}

/** Writes the bytes atomically (temp file + rename) unless the same content is already stored. */
export function storeImage(dataDir: string, buf: Uint8Array, image: ValidImage): { sha256: string; path: string } {
  const sha256 = createHash("sha256").update(buf).digest("hex");
  const rel = imageRelPath(sha256, image.ext);
  const abs = path.join(dataDir, rel);
  if (!existsSync(abs)) {
    // Owner-only whatever the process's umask: generated and imported images are the team's data.
    mkdirSync(path.dirname(abs), { recursive: true, mode: 0o700 });
    const tmp = `${abs}.${randomUUID()}.part`;
    writeFileSync(tmp, buf, { mode: 0o600 });
    renameSync(tmp, abs);
  }
  return { sha256, path: rel };
}

/**
 * Stores an image that is already a file (checked and hashed): moved into the content-addressed store when the
 * caller owns it (an upload, a spilled archive entry) and it is on the same disk, copied otherwise.
 */
export function storeImageFile(
  dataDir: string,
  file: string,
  sha256: string,
  image: ValidImage,
  { move = false }: { move?: boolean } = {},
): { sha256: string; path: string } {
  const rel = imageRelPath(sha256, image.ext);
  const abs = path.join(dataDir, rel);
  if (!existsSync(abs)) {
    mkdirSync(path.dirname(abs), { recursive: true, mode: 0o700 });
    const tmp = `${abs}.${randomUUID()}.part`;
    let moved = false;
    if (move)
      try {
        renameSync(file, tmp);
        moved = true;
      } catch {
        // another disk: copy instead
      }
    if (!moved) copyFileSync(file, tmp);
    chmodSync(tmp, 0o600);
    renameSync(tmp, abs);
  }
  return { sha256, path: rel };
}

/** Resolves a stored image's relative path inside the data directory, refusing anything that escapes it. */
export function resolveStoredImage(dataDir: string, rel: string): string {
  const m = /^images\/([0-9a-f]{2})\/([0-9a-f]{64})\.(png|jpg|webp)$/.exec(rel);
  if (!m || m[2].slice(0, 2) !== m[1]) throw new Error("not a stored image path");
  const abs = path.resolve(dataDir, rel);
  if (!abs.startsWith(path.resolve(dataDir) + path.sep)) throw new Error("path escapes the data directory");
  return abs;
}
