// Looking up an image to serve: only files recorded in the database, inside the data directory, with the type
// that was validated when they were stored.
import { existsSync } from "node:fs";
import type { PrismaClient } from "../../generated/prisma/client";
import { resolveStoredImage } from "./storage";

export async function findServableImage(
  prisma: PrismaClient,
  dataDir: string,
  imageId: string,
): Promise<{ file: string; mimeType: string; sha256: string } | null> {
  if (!/^[a-z0-9]{10,40}$/.test(imageId)) return null;
  const image = await prisma.image.findUnique({ where: { id: imageId }, select: { path: true, mimeType: true, sha256: true } });
  if (!image) return null;
  let file: string;
  try {
    file = resolveStoredImage(dataDir, image.path);
  } catch {
    return null;
  }
  if (!image.path.includes(image.sha256) || !existsSync(file)) return null;
  return { file, mimeType: image.mimeType, sha256: image.sha256 };
}
