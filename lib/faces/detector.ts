// UltraFace RFB-320 face detector: input [1,3,240,320] RGB (px − 127)/128; outputs `scores` [1,N,2] (softmax of
// background/face) and `boxes` [1,N,4] (decoded, normalised x1,y1,x2,y2).
import { resizeToTensor, type Box, type RgbaImage } from "./image";

export const DETECTOR = { width: 320, height: 240, inputName: "input", scoresName: "scores", boxesName: "boxes" } as const;
/** At 0.95 the cat test photo's 0.901 false positive is rejected. */
export const DEFAULT_DETECTION_THRESHOLD = 0.95;
const NMS_IOU = 0.3;

export interface Detection extends Box {
  score: number;
}

export function detectorInput(img: RgbaImage): Float32Array {
  return resizeToTensor(img, { x1: 0, y1: 0, x2: img.width, y2: img.height }, DETECTOR.width, DETECTOR.height, (_c, v) => (v - 127) / 128);
}

function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1));
  const iy = Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1));
  const inter = ix * iy;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy non-maximum suppression, highest score first. */
export function nms(dets: Detection[], iouThreshold = NMS_IOU): Detection[] {
  const sorted = [...dets].sort((a, b) => b.score - a.score);
  const kept: Detection[] = [];
  for (const d of sorted) if (kept.every((k) => iou(k, d) <= iouThreshold)) kept.push(d);
  return kept;
}

/** Detector outputs → face boxes in image pixels above the threshold, after NMS. */
export function decodeDetections(
  scores: Float32Array,
  boxes: Float32Array,
  imgWidth: number,
  imgHeight: number,
  threshold = DEFAULT_DETECTION_THRESHOLD,
): Detection[] {
  const n = scores.length / 2;
  if (boxes.length !== n * 4) throw new RangeError(`detector outputs disagree: ${n} scores, ${boxes.length / 4} boxes`);
  const dets: Detection[] = [];
  for (let i = 0; i < n; i++) {
    const score = scores[i * 2 + 1];
    if (score < threshold) continue;
    dets.push({
      score,
      x1: Math.max(0, boxes[i * 4] * imgWidth),
      y1: Math.max(0, boxes[i * 4 + 1] * imgHeight),
      x2: Math.min(imgWidth, boxes[i * 4 + 2] * imgWidth),
      y2: Math.min(imgHeight, boxes[i * 4 + 3] * imgHeight),
    });
  }
  return nms(dets);
}
