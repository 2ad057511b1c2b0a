// Image validation by content, never by file name: magic bytes, header dimensions, size limits and (PNG, JPEG) a
// full decode. Used by uploads/imports and by the T2I engine before anything is stored.
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { decodeOffThread } from "./decode-thread";
import { decodeWebp } from "./webp";

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
 * The bytes of an image that hold its pixels — PNG: the IDAT chunks; JPEG: everything but the APPn and comment
 * segments; WebP: its image chunks — so metadata padding (a 1 MB ancillary chunk) cannot make a bomb look
 * compressible. A structure that does not hold together is refused: a decoder would only be fed garbage.
 */
function pixelPayloadBytes(buf: Uint8Array, ext: ImageType["ext"]): number {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const fourcc = (at: number) => String.fromCharCode(buf[at], buf[at + 1], buf[at + 2], buf[at + 3]);
  if (ext === "png") {
    let at = 8;
    let idat = 0;
    while (at + 12 <= buf.length) {
      const len = dv.getUint32(at);
      const type = fourcc(at + 4);
      if (at + 12 + len > buf.length) throw new ImageValidationError(`PNG chunk ${JSON.stringify(type)} runs past the end of the file`);
      if (type === "IDAT") idat += len;
      if (type === "IEND") break;
      at += 12 + len;
    }
    if (idat === 0) throw new ImageValidationError("PNG has no image data (IDAT)");
    return idat;
  }
  if (ext === "jpg") {
    let at = 2;
    let metadata = 0;
    while (at + 4 <= buf.length && buf[at] === 0xff) {
      const marker = buf[at + 1];
      if (marker === 0xff) {
        at++;
        continue;
      }
      if (marker === 0xda || marker === 0xd9) break; // start of scan: the entropy-coded pixels follow
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
        at += 2;
        continue;
      }
      const len = dv.getUint16(at + 2);
      if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) metadata += 2 + len;
      at += 2 + len;
    }
    return Math.max(1, buf.length - metadata);
  }
  // WebP: RIFF chunks after "WEBP"; the pixels are in VP8 / VP8L (and ALPH, and ANMF frames).
  let at = 12;
  let payload = 0;
  while (at + 8 <= buf.length) {
    const type = fourcc(at);
    const len = dv.getUint32(at + 4, true);
    if (at + 8 + len > buf.length) throw new ImageValidationError(`WebP chunk ${JSON.stringify(type)} runs past the end of the file`);
    if (type === "VP8 " || type === "VP8L" || type === "ALPH" || type === "ANMF") payload += len;
    at += 8 + len + (len & 1);
  }
  if (payload === 0) throw new ImageValidationError("WebP has no image data (VP8/VP8L)");
  return payload;
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
  // From the pixel data alone when the whole file is here (a head read for a batch's budget uses the file's size).
  const payload = buf.length >= fileBytes ? pixelPayloadBytes(buf, type.ext) : fileBytes;
  const ratio = (width * height * 4) / payload;
  if (width * height > IMAGE_LIMITS.bombPixels && ratio > IMAGE_LIMITS.maxCompression)
    throw new ImageValidationError(
      `refused before decoding: ${width}×${height} pixels from ${Math.round(payload / 1024)} KiB of image data would inflate ${Math.round(ratio)} : 1 (a decompression bomb; at most ${IMAGE_LIMITS.maxCompression} : 1 above ${IMAGE_LIMITS.bombPixels / 1e6} MP)`,
    );
  return { ...type, width, height, bytes: fileBytes };
}

/** The full decode's size: PNG and JPEG by their pure-JS decoders, WebP by libwebp (./webp.ts). */
async function decodeSize(buf: Uint8Array, ext: ImageType["ext"]): Promise<{ width: number; height: number }> {
  if (ext === "png") {
    const png = PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
    return { width: png.width, height: png.height };
  }
  if (ext === "jpg") {
    const img = jpeg.decode(buf, { useTArray: true, maxResolutionInMP: (IMAGE_LIMITS.maxSide * IMAGE_LIMITS.maxSide) / 1e6, maxMemoryUsageInMB: 1024 });
    return { width: img.width, height: img.height };
  }
  const img = await decodeWebp(buf);
  return { width: img.width, height: img.height };
}

function checkDecoded(header: ValidImage, decoded: { width: number; height: number }): ValidImage {
  if (decoded.width !== header.width || decoded.height !== header.height)
    throw new ImageValidationError(`header says ${header.width}×${header.height} but the image decodes to ${decoded.width}×${decoded.height}`);
  return header;
}

/** Validates an image buffer on this thread (header first, then a full decode); rejects with ImageValidationError. */
export async function validateImage(buf: Uint8Array): Promise<ValidImage> {
  const header = checkImageHeader(buf);
  let decoded;
  try {
    decoded = await decodeSize(buf, header.ext);
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
  let decoded;
  try {
    decoded = await decodeOffThread(buf, header.ext, (IMAGE_LIMITS.maxSide * IMAGE_LIMITS.maxSide) / 1e6);
  } catch (e) {
    throw new ImageValidationError(`cannot be decoded as ${header.ext.toUpperCase()}: ${(e as Error).message}`);
  }
  return checkDecoded(header, decoded);
}
