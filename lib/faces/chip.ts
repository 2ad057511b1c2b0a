// FairFace's aligned face chips, cut the way its predict.py cuts them: dlib.get_face_chips(img, faces, size=300,
// padding=0.25) on five landmarks, then torchvision's Resize((224, 224)) and ImageNet normalisation. Ported from
// dlib (image_transforms/interpolation.h: get_face_chip_details, chip_details, extract_image_chips;
// image_pyramid.h: pyramid_down<2>):
// - the chip maps dlib's mean five-point face (padded) onto the landmarks by a least-squares similarity transform;
// - the extraction rectangle is the chip scaled by that transform, centred where the chip's centre lands;
// - a chip much smaller than its rectangle is sampled from a level of dlib's 2:1 pyramid ([1,4,6,4,1] filter),
//   built over the rectangle's bounding box, then bilinearly; samples outside the image are black, and values are
//   truncated to 8 bits, as dlib does.
import { fairfaceNormalise } from "./classifier";
import { resizeToTensor, type RgbaImage } from "./image";
import type { Point } from "./landmarks";

export const FAIRFACE_CHIP = { size: 300, padding: 0.25, input: 224 } as const;

/** dlib's five-point template on the unit square (parts 0–4: left eye outer/inner, right eye outer/inner, nose). */
const TEMPLATE: readonly Point[] = [
  { x: 0.8595674595992, y: 0.2134981538014 },
  { x: 0.6460604764104, y: 0.2289674387677 },
  { x: 0.1205750620789, y: 0.2137274526848 },
  { x: 0.3340850613712, y: 0.2290642403242 },
  { x: 0.4901123135679, y: 0.6277975316475 },
];

/** x' = m·x + b */
export interface Similarity {
  m: [[number, number], [number, number]];
  b: Point;
}

const apply = (t: Similarity, p: Point): Point => ({ x: t.m[0][0] * p.x + t.m[0][1] * p.y + t.b.x, y: t.m[1][0] * p.x + t.m[1][1] * p.y + t.b.y });

/**
 * The least-squares similarity (rotation, uniform scale, translation; no reflection) taking `from` onto `to` —
 * what dlib's find_similarity_transform (Umeyama) gives when the best fit is not a reflection.
 */
export function similarityTransform(from: readonly Point[], to: readonly Point[]): Similarity {
  const n = from.length;
  const mf = { x: from.reduce((a, p) => a + p.x, 0) / n, y: from.reduce((a, p) => a + p.y, 0) / n };
  const mt = { x: to.reduce((a, p) => a + p.x, 0) / n, y: to.reduce((a, p) => a + p.y, 0) / n };
  let a = 0;
  let b = 0;
  let var0 = 0;
  for (let i = 0; i < n; i++) {
    const fx = from[i].x - mf.x;
    const fy = from[i].y - mf.y;
    const tx = to[i].x - mt.x;
    const ty = to[i].y - mt.y;
    a += fx * tx + fy * ty;
    b += fx * ty - fy * tx;
    var0 += fx * fx + fy * fy;
  }
  const s = var0 > 0 ? Math.hypot(a, b) / var0 : 0;
  const th = Math.atan2(b, a);
  const m: Similarity["m"] = [
    [s * Math.cos(th), -s * Math.sin(th)],
    [s * Math.sin(th), s * Math.cos(th)],
  ];
  return { m, b: { x: mt.x - (m[0][0] * mf.x + m[0][1] * mf.y), y: mt.y - (m[1][0] * mf.x + m[1][1] * mf.y) } };
}

/** A drectangle (inclusive bounds, doubles) and the chip's rotation. */
export interface ChipDetails {
  rect: { left: number; top: number; right: number; bottom: number };
  angle: number;
  size: number;
}

/** get_face_chip_details for a five-point shape. */
export function faceChipDetails(points: readonly Point[], size: number = FAIRFACE_CHIP.size, padding: number = FAIRFACE_CHIP.padding): ChipDetails {
  if (points.length !== 5) throw new Error(`five landmarks expected, got ${points.length}`);
  const chipPoints = TEMPLATE.map((p) => ({ x: ((padding + p.x) / (2 * padding + 1)) * size, y: ((padding + p.y) / (2 * padding + 1)) * size }));
  const t = similarityTransform(chipPoints, points);
  const angle = Math.atan2(t.m[1][0], t.m[0][0]);
  const scale = Math.hypot(t.m[0][0], t.m[1][0]);
  const c = apply(t, { x: size / 2, y: size / 2 });
  const half = (size * scale - 1) / 2;
  return { rect: { left: c.x - half, top: c.y - half, right: c.x + half, bottom: c.y + half }, angle, size };
}

type Rect = ChipDetails["rect"];
const area = (r: Rect) => (r.top > r.bottom || r.left > r.right ? 0 : (r.right - r.left + 1) * (r.bottom - r.top + 1));
/** pyramid_down<2>'s point_down applied to a rectangle */
const rectDown = (r: Rect): Rect => ({ left: r.left / 2 - 1.25, top: r.top / 2 - 0.75, right: r.right / 2 - 1.25, bottom: r.bottom / 2 - 0.75 });
const rotate = (c: Point, p: Point, angle: number): Point => {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return { x: c.x + cos * (p.x - c.x) - sin * (p.y - c.y), y: c.y + sin * (p.x - c.x) + cos * (p.y - c.y) };
};

/** An RGB image, 3 bytes per pixel. */
interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

function cropRgb(img: RgbaImage, l: number, t: number, r: number, b: number): Rgb {
  const width = Math.max(0, r - l + 1);
  const height = Math.max(0, b - t + 1);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const s = ((t + y) * img.width + l + x) * 4;
      const d = (y * width + x) * 3;
      data[d] = img.data[s];
      data[d + 1] = img.data[s + 1];
      data[d + 2] = img.data[s + 2];
    }
  return { width, height, data };
}

/** dlib's pyramid_down<2> for RGB: the [1,4,6,4,1] filter on rows then columns, integer sums, truncated ÷256. */
export function pyramidDown(img: Rgb): Rgb {
  if (img.width <= 8 || img.height <= 8) return { width: 0, height: 0, data: new Uint8Array(0) };
  const tw = Math.floor((img.width - 3) / 2);
  const d = img.data;
  const rows = new Uint32Array(img.height * tw * 3);
  for (let y = 0; y < img.height; y++)
    for (let c = 0; c < tw; c++) {
      const i = (y * img.width + 2 * c) * 3;
      const o = (y * tw + c) * 3;
      for (let k = 0; k < 3; k++) rows[o + k] = d[i + k] + 4 * d[i + 3 + k] + 6 * d[i + 6 + k] + 4 * d[i + 9 + k] + d[i + 12 + k];
    }
  const th = Math.floor((img.height - 3) / 2);
  const stride = tw * 3;
  const data = new Uint8Array(th * stride);
  for (let dr = 0, r = 2; r < img.height - 2 && dr < th; dr++, r += 2)
    for (let i = 0; i < stride; i++) {
      const at = r * stride + i;
      data[dr * stride + i] = Math.floor((rows[at - 2 * stride] + 4 * rows[at - stride] + 6 * rows[at] + 4 * rows[at + stride] + rows[at + 2 * stride]) / 256);
    }
  return { width: tw, height: th, data };
}

/** extract_image_chip: the size × size chip as RGBA. */
export function extractChip(img: RgbaImage, d: ChipDetails): RgbaImage {
  const n = d.size;
  const out = new Uint8ClampedArray(n * n * 4);
  for (let i = 3; i < out.length; i += 4) out[i] = 255;
  const centre = { x: (d.rect.left + d.rect.right) / 2, y: (d.rect.top + d.rect.bottom) / 2 };
  // The rotated rectangle's bounding box, grown by what the pyramid's filter reaches, clipped and rounded.
  let depth = 0;
  let grow = 2;
  for (let r = rectDown(d.rect); area(r) > n * n; r = rectDown(r)) {
    depth++;
    grow = grow * 2 + 2;
  }
  const corners = [
    { x: d.rect.left, y: d.rect.top },
    { x: d.rect.right, y: d.rect.top },
    { x: d.rect.left, y: d.rect.bottom },
    { x: d.rect.right, y: d.rect.bottom },
  ].map((p) => rotate(centre, p, d.angle));
  const l = Math.floor(Math.max(0, Math.min(...corners.map((p) => p.x)) - grow) + 0.5);
  const t = Math.floor(Math.max(0, Math.min(...corners.map((p) => p.y)) - grow) + 0.5);
  const r = Math.floor(Math.min(img.width - 1, Math.max(...corners.map((p) => p.x)) + grow) + 0.5);
  const b = Math.floor(Math.min(img.height - 1, Math.max(...corners.map((p) => p.y)) + grow) + 0.5);
  if (l > r || t > b) return { width: n, height: n, data: out };
  // The pyramid level: descend while the rectangle, one level down, still has more pixels than the chip.
  let local: Rect = { left: d.rect.left - l, top: d.rect.top - t, right: d.rect.right - l, bottom: d.rect.bottom - t };
  let levels = 0;
  while (levels <= depth && area(rectDown(local)) > n * n) {
    local = rectDown(local);
    levels++;
  }
  let src = cropRgb(img, l, t, r, b);
  for (let i = 0; i < levels; i++) src = pyramidDown(src);
  // Chip pixel (0,0) → the rotated top-left corner, (n−1,0) → top-right, (0,n−1) → bottom-left.
  const lc = { x: (local.left + local.right) / 2, y: (local.top + local.bottom) / 2 };
  const tl = rotate(lc, { x: local.left, y: local.top }, d.angle);
  const tr = rotate(lc, { x: local.right, y: local.top }, d.angle);
  const bl = rotate(lc, { x: local.left, y: local.bottom }, d.angle);
  const ux = { x: (tr.x - tl.x) / (n - 1), y: (tr.y - tl.y) / (n - 1) };
  const uy = { x: (bl.x - tl.x) / (n - 1), y: (bl.y - tl.y) / (n - 1) };
  const sd = src.data;
  const sw = src.width;
  for (let row = 0; row < n; row++)
    for (let col = 0; col < n; col++) {
      const x = tl.x + col * ux.x + row * uy.x;
      const y = tl.y + col * ux.y + row * uy.y;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      if (!(x0 >= 0 && y0 >= 0 && x0 + 1 < sw && y0 + 1 < src.height)) continue; // outside: black
      const fx = x - x0;
      const fy = y - y0;
      const o = (row * n + col) * 4;
      const i00 = (y0 * sw + x0) * 3;
      const i10 = i00 + sw * 3;
      for (let k = 0; k < 3; k++) {
        const top = (1 - fx) * sd[i00 + k] + fx * sd[i00 + 3 + k];
        const bottom = (1 - fx) * sd[i10 + k] + fx * sd[i10 + 3 + k];
        out[o + k] = Math.trunc((1 - fy) * top + fy * bottom);
      }
    }
  return { width: n, height: n, data: out };
}

/** FairFace's input for one face from its five landmarks: the 300-px chip, resized to 224 (bilinear), normalised. */
export function alignedClassifierInput(img: RgbaImage, points: readonly Point[]): Float32Array {
  const chip = extractChip(img, faceChipDetails(points));
  const full = { x1: 0, y1: 0, x2: chip.width, y2: chip.height };
  return resizeToTensor(chip, full, FAIRFACE_CHIP.input, FAIRFACE_CHIP.input, fairfaceNormalise, "bilinear");
}
