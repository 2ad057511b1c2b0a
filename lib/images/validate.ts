// Image validation by content, never by file name: magic bytes, header dimensions, size limits and (PNG, JPEG) a
// full decode. Used by uploads/imports and by the T2I engine before anything is stored.
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { decodeOffThread } from "./decode-thread";

export const IMAGE_LIMITS = {
  maxBytes: 25 * 1024 * 1024,
  maxSide: 8192,
  minSide: 16,
  /**
   * Decompression bombs: an image larger than `bombPixels` whose decoded size (4 bytes a pixel) is more than
   * `maxCompression` times its file is refused before decoding (8000 × 8000 from 186 KB is 1,376 : 1; generated
   * photographs compress about 2–5 : 1, flat drawings rarely past 100 : 1).
   */
  bombPixels: 2048 * 2048,
  maxCompression: 250,
} as const;
export type ImageType = { mime: "image/png" | "image/jpeg" | "image/webp"; ext: "png" | "jpg" | "webp" };

export class ImageValidationError extends Error {}

/** The image type from its first bytes, or null. */
export function sniffImageType(buf: Uint8Array): ImageType | null {
  if (
    buf.length >= 8 &&
    buf[0] === 0x89 &&
    buf[1] === 0x50 &&
    buf[2] === 0x4e &&
    buf[3] === 0x47 &&
    buf[4] === 0x0d &&
    buf[5] === 0x0a &&
    buf[6] === 0x1a &&
    buf[7] === 0x0a
  )
    return { mime: "image/png", ext: "png" };
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return { mime: "image/jpeg", ext: "jpg" };
  if (buf.length >= 12 && String.fromCharCode(...buf.subarray(0, 4)) === "RIFF" && String.fromCharCode(...buf.subarray(8, 12)) === "WEBP")
    return { mime: "image/webp", ext: "webp" };
  return null;
}

function webpSize(buf: Uint8Array): { width: number; height: number } | null {
  const chunk = String.fromCharCode(...buf.subarray(12, 16));
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  // VP8X: canvas width − 1 and height − 1 as 24-bit little-endian at bytes 24–26 and 27–29 (a 30-byte file has both).
  if (chunk === "VP8X" && buf.length >= 30)
    return { width: 1 + (buf[24] | (buf[25] << 8) | (buf[26] << 16)), height: 1 + (buf[27] | (buf[28] << 8) | (buf[29] << 16)) };
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

/** PNG: the IHDR chunk must come first; its width and height are big-endian at bytes 16–23. */
function pngSize(buf: Uint8Array): { width: number; height: number } | null {
  if (buf.length < 24 || String.fromCharCode(...buf.subarray(12, 16)) !== "IHDR") return null;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  return { width: dv.getUint32(16), height: dv.getUint32(20) };
}

/** JPEG: walk the marker segments to the first start-of-frame, which holds the height and width. */
function jpegSize(buf: Uint8Array): { width: number; height: number } | null {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame header
    const len = dv.getUint16(i + 2);
    if (len < 2) return null;
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) return i + 9 <= buf.length ? { height: dv.getUint16(i + 5), width: dv.getUint16(i + 7) } : null;
    i += 2 + len;
  }
  return null;
}

/**
 * The checks that need no decoding: size in bytes, type by magic bytes, dimensions from the header against the
 * limits. A file claiming 60000 × 60000 pixels is refused here, in microseconds, before a decoder allocates a byte.
 */
export function checkImageHeader(buf: Uint8Array, fileBytes = buf.length): ValidImage {
  if (fileBytes === 0) throw new ImageValidationError("empty file");
  if (fileBytes > IMAGE_LIMITS.maxBytes) throw new ImageValidationError(`larger than ${IMAGE_LIMITS.maxBytes / 2 ** 20} MiB`);
  const type = sniffImageType(buf);
  if (!type) throw new ImageValidationError("not a PNG, JPEG or WebP image (checked by content, not by name)");
  const size = type.ext === "png" ? pngSize(buf) : type.ext === "jpg" ? jpegSize(buf) : webpSize(buf);
  if (!size) throw new ImageValidationError(`${type.ext.toUpperCase()} header is unreadable`);
  const { width, height } = size;
  if (width < IMAGE_LIMITS.minSide || height < IMAGE_LIMITS.minSide) throw new ImageValidationError(`too small (${width}×${height})`);
  if (width > IMAGE_LIMITS.maxSide || height > IMAGE_LIMITS.maxSide)
    throw new ImageValidationError(`too large (${width}×${height}, max ${IMAGE_LIMITS.maxSide} a side)`);
  const ratio = (width * height * 4) / fileBytes;
  if (width * height > IMAGE_LIMITS.bombPixels && ratio > IMAGE_LIMITS.maxCompression)
    throw new ImageValidationError(
      `refused before decoding: ${width}×${height} pixels from ${Math.round(fileBytes / 1024)} KiB would inflate ${Math.round(ratio)} : 1 (a decompression bomb; at most ${IMAGE_LIMITS.maxCompression} : 1 above ${IMAGE_LIMITS.bombPixels / 1e6} MP)`,
    );
  return { ...type, width, height, bytes: fileBytes };
}

/** The full decode (PNG, JPEG; WebP has no pure-JS decoder and is decoded by the browser before labelling). */
function decodeSize(buf: Uint8Array, ext: ImageType["ext"]): { width: number; height: number } | null {
  if (ext === "png") {
    const png = PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
    return { width: png.width, height: png.height };
  }
  if (ext === "jpg") {
    const img = jpeg.decode(buf, { useTArray: true, maxResolutionInMP: (IMAGE_LIMITS.maxSide * IMAGE_LIMITS.maxSide) / 1e6, maxMemoryUsageInMB: 1024 });
    return { width: img.width, height: img.height };
  }
  return null;
}

function checkDecoded(header: ValidImage, decoded: { width: number; height: number } | null): ValidImage {
  if (decoded && (decoded.width !== header.width || decoded.height !== header.height))
    throw new ImageValidationError(`header says ${header.width}×${header.height} but the image decodes to ${decoded.width}×${decoded.height}`);
  return header;
}

/** Validates an image buffer on this thread (header first, then a full decode); throws ImageValidationError. */
export function validateImage(buf: Uint8Array): ValidImage {
  const header = checkImageHeader(buf);
  let decoded;
  try {
    decoded = decodeSize(buf, header.ext);
  } catch (e) {
    throw new ImageValidationError(`cannot be decoded as ${header.ext.toUpperCase()}: ${(e as Error).message}`);
  }
  return checkDecoded(header, decoded);
}

/**
 * As validateImage, with the decode off the request's event loop (a worker thread): the server keeps answering
 * while a large PNG inflates. The header is checked first, here, so what reaches the decoder is within limits.
 */
export async function validateImageAsync(buf: Uint8Array): Promise<ValidImage> {
  const header = checkImageHeader(buf);
  if (header.ext === "webp") return header;
  let decoded;
  try {
    decoded = await decodeOffThread(buf, header.ext, (IMAGE_LIMITS.maxSide * IMAGE_LIMITS.maxSide) / 1e6);
  } catch (e) {
    throw new ImageValidationError(`cannot be decoded as ${header.ext.toUpperCase()}: ${(e as Error).message}`);
  }
  return checkDecoded(header, decoded);
}
