// Pure pixel operations on RGBA buffers, shared by the browser (canvas ImageData) and Node tests (decoded files).

export interface RgbaImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row-major */
  data: Uint8ClampedArray | Uint8Array;
}

export interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * The two resampling filters the reference pipelines use: Keys cubic (a = −0.5, PIL's BICUBIC: CLIP, the detector)
 * and the triangle (PIL's BILINEAR: torchvision's default Resize, which FairFace's predict.py uses on its chips).
 */
export type ResampleKernel = "bicubic" | "bilinear";

const KERNELS: Record<ResampleKernel, { support: number; weight: (t: number) => number }> = {
  bicubic: { support: 2, weight: (t) => cubic(t) },
  bilinear: { support: 1, weight: (t) => Math.max(0, 1 - Math.abs(t)) },
};

/** Keys cubic kernel (a = −0.5), the "bicubic" of PIL and most image libraries. */
function cubic(t: number): number {
  const a = -0.5;
  t = Math.abs(t);
  const t2 = t * t; // (not t ** 3: an engine-approximated pow — lib/core/libm.ts)
  if (t < 1) return (a + 2) * t2 * t - (a + 3) * t2 + 1;
  if (t < 2) return a * t2 * t - 5 * a * t2 + 8 * a * t - 4 * a;
  return 0;
}

/**
 * Per output pixel, the source pixels and weights along one axis. When shrinking, the kernel is stretched by the
 * scale factor (antialiasing, as PIL does), so a 1024-px portrait reduced to 320 px is low-pass filtered rather
 * than sampled — the detector then sees the same picture whatever the source resolution.
 */
function axisWeights(start: number, length: number, outSize: number, kernel: ResampleKernel): Array<{ first: number; weights: Float32Array }> {
  const { support: base, weight } = KERNELS[kernel];
  const scale = length / outSize;
  const stretch = Math.max(1, scale);
  const support = base * stretch;
  return Array.from({ length: outSize }, (_, o) => {
    const center = start + (o + 0.5) * scale;
    const lo = Math.floor(center - support);
    const hi = Math.ceil(center + support);
    const ws: number[] = [];
    let sum = 0;
    for (let i = lo; i <= hi; i++) {
      const w = weight((i + 0.5 - center) / stretch);
      ws.push(w);
      sum += w;
    }
    // Edge pixels are repeated (clamped) rather than dropped, so weights always sum to 1.
    return { first: lo, weights: Float32Array.from(ws, (w) => w / sum) };
  });
}

/**
 * Resamples a source region into a width × height RGB planar float tensor (NCHW, batch 1), separably, with an
 * antialiased filter (bicubic unless told), then maps each channel value through `normalise`.
 */
export function resizeToTensor(
  img: RgbaImage,
  region: Box,
  width: number,
  height: number,
  normalise: (channel: 0 | 1 | 2, value: number) => number,
  kernel: ResampleKernel = "bicubic",
): Float32Array {
  const wx = axisWeights(region.x1, region.x2 - region.x1, width, kernel);
  const wy = axisWeights(region.y1, region.y2 - region.y1, height, kernel);
  const clampX = (x: number) => (x < 0 ? 0 : x >= img.width ? img.width - 1 : x);
  const clampY = (y: number) => (y < 0 ? 0 : y >= img.height ? img.height - 1 : y);
  // Per output column, the byte offsets of its source pixels within a row (edges clamped): computed once, not per row.
  const taps = wx.map(({ first, weights }) => Int32Array.from(weights, (_, k) => clampX(first + k) * 4));
  const src = img.data;
  // Horizontal pass over every source row the vertical pass needs.
  const horiz = new Map<number, Float32Array>();
  for (const { first, weights } of wy)
    for (let k = 0; k < weights.length; k++) {
      const y = clampY(first + k);
      if (horiz.has(y)) continue;
      const row = new Float32Array(width * 3);
      const base = y * img.width * 4;
      for (let x = 0; x < width; x++) {
        const weights = wx[x].weights;
        const at = taps[x];
        let r = 0;
        let g = 0;
        let b = 0;
        for (let k = 0; k < weights.length; k++) {
          const i = base + at[k];
          const w = weights[k];
          r += src[i] * w;
          g += src[i + 1] * w;
          b += src[i + 2] * w;
        }
        row[x * 3] = r;
        row[x * 3 + 1] = g;
        row[x * 3 + 2] = b;
      }
      horiz.set(y, row);
    }
  // Vertical pass: each output row's source rows looked up once (a Map lookup per tap and channel took most of the
  // labeller's preprocessing time); the sums run in the same order, so the tensor is the same to the bit.
  const out = new Float32Array(3 * width * height);
  const plane = width * height;
  for (let y = 0; y < height; y++) {
    const { first, weights } = wy[y];
    const rows = Array.from(weights, (_, k) => horiz.get(clampY(first + k))!);
    const n = weights.length;
    for (let x = 0; x < width; x++) {
      for (let c = 0 as 0 | 1 | 2; c < 3; c = (c + 1) as 0 | 1 | 2) {
        const j = x * 3 + c;
        let v = 0;
        for (let k = 0; k < n; k++) v += rows[k][j] * weights[k];
        out[c * plane + y * width + x] = normalise(c, Math.min(255, Math.max(0, v)));
      }
    }
  }
  return out;
}

/** Expands a face box by `margin` (0.25 = 25 %) and makes it square around its centre, clamped to the image. */
export function squareCrop(box: Box, imgWidth: number, imgHeight: number, margin = 0.25): Box {
  const cx = (box.x1 + box.x2) / 2;
  const cy = (box.y1 + box.y2) / 2;
  const side = Math.max(box.x2 - box.x1, box.y2 - box.y1) * (1 + margin);
  const half = Math.min(side / 2, Math.max(imgWidth, imgHeight));
  return {
    x1: Math.max(0, cx - half),
    y1: Math.max(0, cy - half),
    x2: Math.min(imgWidth, cx + half),
    y2: Math.min(imgHeight, cy + half),
  };
}
