// Image validation by content, never by file name: magic bytes, header dimensions, size limits and (PNG, JPEG) a
// full decode. Used by uploads/imports and by the T2I engine before anything is stored.
import jpeg from "jpeg-js";
import { PNG } from "pngjs";

export const IMAGE_LIMITS = { maxBytes: 25 * 1024 * 1024, maxSide: 8192, minSide: 16 } as const;
export type ImageType = { mime: "image/png" | "image/jpeg" | "image/webp"; ext: "png" | "jpg" | "webp" };

export class ImageValidationError extends Error {}

/** The image type from its first bytes, or null. */
export function sniffImageType(buf: Uint8Array): ImageType | null {
  if (buf.length >= 8 && buf[0] === 0x89 && buf[1] === 0x50 && buf[2] === 0x4e && buf[3] === 0x47 && buf[4] === 0x0d && buf[5] === 0x0a && buf[6] === 0x1a && buf[7] === 0x0a)
    return { mime: "image/png", ext: "png" };
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  if (buf.length >= 12 && String.fromCharCode(...buf.subarray(0, 4)) === "RIFF" && String.fromCharCode(...buf.subarray(8, 12)) === "WEBP")
    return { mime: "image/webp", ext: "webp" };
  return null;
}

function webpSize(buf: Uint8Array): { width: number; height: number } | null {
  const chunk = String.fromCharCode(...buf.subarray(12, 16));
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (chunk === "VP8X" && buf.length >= 30) return { width: 1 + (dv.getUint32(24, true) & 0xffffff), height: 1 + (dv.getUint32(27, true) & 0xffffff) };
  if (chunk === "VP8L" && buf.length >= 25 && buf[20] === 0x2f) {
    const b = dv.getUint32(21, true);
    return { width: 1 + (b & 0x3fff), height: 1 + ((b >> 14) & 0x3fff) };
  }
  if (chunk === "VP8 " && buf.length >= 30 && buf[23] === 0x9d && buf[24] === 0x01 && buf[25] === 0x2a)
    return { width: dv.getUint16(26, true) & 0x3fff, height: dv.getUint16(28, true) & 0x3fff };
  return null;
}

export interface ValidImage extends ImageType {
  width: number;
  height: number;
  bytes: number;
}

/** Validates an image buffer; throws ImageValidationError with a reason a person can act on. */
export function validateImage(buf: Uint8Array): ValidImage {
  if (buf.length === 0) throw new ImageValidationError("empty file");
  if (buf.length > IMAGE_LIMITS.maxBytes) throw new ImageValidationError(`larger than ${IMAGE_LIMITS.maxBytes / 2 ** 20} MiB`);
  const type = sniffImageType(buf);
  if (!type) throw new ImageValidationError("not a PNG, JPEG or WebP image (checked by content, not by name)");
  let size: { width: number; height: number } | null = null;
  try {
    if (type.ext === "png") {
      const png = PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
      size = { width: png.width, height: png.height };
    } else if (type.ext === "jpg") {
      const img = jpeg.decode(buf, { useTArray: true, maxResolutionInMP: (IMAGE_LIMITS.maxSide * IMAGE_LIMITS.maxSide) / 1e6, maxMemoryUsageInMB: 1024 });
      size = { width: img.width, height: img.height };
    } else {
      // No pure-JS WebP decoder: the header is checked here; the browser decodes it before labelling.
      size = webpSize(buf);
    }
  } catch (e) {
    throw new ImageValidationError(`cannot be decoded as ${type.ext.toUpperCase()}: ${(e as Error).message}`);
  }
  if (!size) throw new ImageValidationError(`${type.ext.toUpperCase()} header is unreadable`);
  const { width, height } = size;
  if (width < IMAGE_LIMITS.minSide || height < IMAGE_LIMITS.minSide) throw new ImageValidationError(`too small (${width}×${height})`);
  if (width > IMAGE_LIMITS.maxSide || height > IMAGE_LIMITS.maxSide) throw new ImageValidationError(`too large (${width}×${height}, max ${IMAGE_LIMITS.maxSide} a side)`);
  return { ...type, width, height, bytes: buf.length };
}
