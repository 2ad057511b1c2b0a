// FairFace's pre-resize: predict.py scales every image so its longer side is 800 px — `dlib.resize_image(img,
// rows=new_height, cols=new_width)`, up or down, the shorter side truncated by int() — before it detects faces and
// cuts chips from it. Ported from dlib's resize_image for RGB images with bilinear interpolation
// (dlib/image_transforms/interpolation.h): columns four at a time in float32 (SSE) with weights from the double-
// precision row position, values truncated toward zero; the columns whose right neighbour would fall outside the
// image are finished one at a time in double precision, again truncated. tests/face-resize.test.ts compares it with
// dlib itself, byte for byte.
import type { RgbaImage } from "./image";

/** predict.py's target size: the longer side 800, the other `int(800 * short / long)` (a square: 800 × 800). */
const FAIRFACE_MAX_SIZE = 800;
export function fairfaceSize(width: number, height: number, max = FAIRFACE_MAX_SIZE): { width: number; height: number } {
  return width > height ? { width: max, height: Math.trunc((max * height) / width) } : { width: Math.trunc((max * width) / height), height: max };
}

const f32 = Math.fround;

/** dlib's resize_image(in, out) for an RGB image (alpha is dropped: the result is opaque). */
export function dlibResizeRgb(img: RgbaImage, rows: number, cols: number): RgbaImage {
  const inW = img.width;
  const inH = img.height;
  const out = new Uint8ClampedArray(rows * cols * 4);
  const res = { width: cols, height: rows, data: out };
  if (!rows || !cols || !inW || !inH) return res;
  const src = img.data;
  const at = (r: number, c: number, ch: number) => src[(r * inW + c) * 4 + ch];
  const xScale = (inW - 1) / Math.max(cols - 1, 1);
  const yScale = (inH - 1) / Math.max(rows - 1, 1);
  const xStep4 = f32(4 * xScale);
  let y = -yScale;
  for (let r = 0; r < rows; r++) {
    y += yScale;
    const top = Math.floor(y);
    const bottom = Math.min(top + 1, inH - 1);
    const tbFrac = y - top;
    const tb = f32(tbFrac);
    const invTb = f32(1 - tbFrac);
    const x0 = -4 * xScale;
    // four float32 lanes: x, x + s, x + 2s, x + 3s (each rounded from double), stepped by float32(4s)
    const lanes = new Float64Array([f32(x0), f32(x0 + xScale), f32(x0 + 2 * xScale), f32(x0 + 3 * xScale)]);
    const topRow = top * inW * 4;
    const bottomRow = bottom * inW * 4;
    let c = 0;
    for (; ; c += 4) {
      for (let k = 0; k < 4; k++) lanes[k] = f32(lanes[k] + xStep4);
      if (Math.trunc(lanes[3]) + 1 >= inW) break; // _mm_cvttps_epi32: the last lane's right neighbour is outside
      for (let k = 0; k < 4; k++) {
        const l = Math.trunc(lanes[k]);
        const lr = f32(lanes[k] - l);
        const invLr = f32(1 - lr);
        const tlf = f32(invTb * invLr);
        const trf = f32(invTb * lr);
        const blf = f32(tb * invLr);
        const brf = f32(tb * lr);
        const o = (r * cols + c + k) * 4;
        const tl = topRow + l * 4;
        const bl = bottomRow + l * 4;
        for (let ch = 0; ch < 3; ch++) {
          const sum = f32(f32(f32(f32(tlf * src[tl + ch]) + f32(trf * src[tl + 4 + ch])) + f32(blf * src[bl + ch])) + f32(brf * src[bl + 4 + ch]));
          out[o + ch] = Math.trunc(sum) & 255; // cvttps, then a cast to unsigned char
        }
        out[o + 3] = 255;
      }
    }
    // The rest, one column at a time in double precision (dlib's scalar tail).
    let x = -xScale + c * xScale;
    for (; c < cols; c++) {
      x += xScale;
      const left = Math.floor(x);
      const right = Math.min(left + 1, inW - 1);
      const lr = x - left;
      const o = (r * cols + c) * 4;
      for (let ch = 0; ch < 3; ch++) {
        const v =
          (1 - tbFrac) * ((1 - lr) * at(top, left, ch) + lr * at(top, right, ch)) + tbFrac * ((1 - lr) * at(bottom, left, ch) + lr * at(bottom, right, ch));
        out[o + ch] = Math.trunc(v) & 255;
      }
      out[o + 3] = 255;
    }
  }
  return res;
}

/** An image as predict.py hands it to the detector: resized so its longer side is 800 px. */
export function fairfacePreResize(img: RgbaImage): RgbaImage {
  const size = fairfaceSize(img.width, img.height);
  return dlibResizeRgb(img, size.height, size.width);
}
