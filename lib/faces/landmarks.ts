// Five facial landmarks per detected face, for FairFace's aligned chips (./chip.ts). FairFace's predict.py takes
// them from dlib's 5-point shape predictor; dlib cannot run here, so the landmarks come from the 68-point model that
// ships beside the detector in the same npm package (faceplugin-face-recognition-js, MIT: model/fr_landmark.onnx),
// and dlib's five are read off the 68 (iBUG numbering) — the eye corners and the base of the nose:
//   dlib part 0 = subject's left eye, outer corner (iBUG 45)   part 1 = its inner corner (iBUG 42)
//   dlib part 2 = subject's right eye, outer corner (iBUG 36)  part 3 = its inner corner (iBUG 39)
//   dlib part 4 = base of the nose (iBUG 33)
// The model's input, as the package's own code prepares it: the detector's box (kept inside the image), resized to
// 64×64, grey, divided by 256; its output: 68 (x, y) pairs as fractions of the box. Two documented differences: the
// resize is antialiased here (the package's cv.resize is plain bilinear), and grey is the standard luma of RGB (the
// package's cvtColor(BGR2GRAY) on canvas RGBA swaps the red and blue weights — a quirk of its JavaScript port, not
// of how such models are trained).
import type * as OrtType from "onnxruntime-web";
import { ModelLayoutError } from "./classifier";
import { resizeToTensor, type Box, type RgbaImage } from "./image";

type Ort = typeof OrtType;
type Session = OrtType.InferenceSession;

const LANDMARKER = { inputName: "input", outputName: "output", size: 64, points: 68 } as const;

/** iBUG-68 indices of dlib's five points, in dlib's order (see the header). */
const DLIB_FIVE_FROM_68 = [45, 42, 36, 39, 33] as const;

export interface Point {
  x: number;
  y: number;
}

/** Checks a loaded model is the 68-point landmarker this pipeline expects: input [1,1,64,64], output [1,136]. */
export function assertLandmarker(session: Session) {
  const ins = session.inputMetadata ?? [];
  const outs = session.outputMetadata ?? [];
  const shape = (m: (typeof ins)[number] | undefined) => (m && m.isTensor ? m.shape.join(",") : "?");
  const okIn = ins.length === 1 && ins[0].name === LANDMARKER.inputName && shape(ins[0]) === `1,1,${LANDMARKER.size},${LANDMARKER.size}`;
  const okOut = outs.length === 1 && outs[0].name === LANDMARKER.outputName && shape(outs[0]) === `1,${LANDMARKER.points * 2}`;
  if (!okIn || !okOut)
    throw new ModelLayoutError(
      `not the 68-point landmarker: expected input "input" [1,1,64,64] and output "output" [1,136], got ${ins.map((m) => `${m.name} [${shape(m)}]`).join(", ")} → ${outs.map((m) => `${m.name} [${shape(m)}]`).join(", ")}`,
    );
}

/** The region the landmarker sees: the box, moved (not cut) to lie inside the image, as the package does. */
export function landmarkRegion(box: Box, width: number, height: number): Box {
  const w = Math.min(box.x2 - box.x1, width - 1);
  const h = Math.min(box.y2 - box.y1, height - 1);
  const x1 = Math.min(Math.max(0, box.x1), width - 1 - w);
  const y1 = Math.min(Math.max(0, box.y1), height - 1 - h);
  return { x1, y1, x2: x1 + w, y2: y1 + h };
}

/** The [1,1,64,64] grey input for one face. */
function landmarkInput(img: RgbaImage, box: Box): Float32Array {
  const n = LANDMARKER.size * LANDMARKER.size;
  const rgb = resizeToTensor(img, landmarkRegion(box, img.width, img.height), LANDMARKER.size, LANDMARKER.size, (_c, v) => v, "bilinear");
  const grey = new Float32Array(n);
  for (let i = 0; i < n; i++) grey[i] = (0.299 * rgb[i] + 0.587 * rgb[n + i] + 0.114 * rgb[2 * n + i]) / 256;
  return grey;
}

/** The model's 136 numbers (fractions of the box) as 68 image points. */
function decodeLandmarks(out: ArrayLike<number>, box: Box): Point[] {
  if (out.length !== LANDMARKER.points * 2) throw new ModelLayoutError(`the landmarker gave ${out.length} numbers; 136 expected`);
  const w = box.x2 - box.x1;
  const h = box.y2 - box.y1;
  return Array.from({ length: LANDMARKER.points }, (_, i) => ({ x: box.x1 + out[2 * i] * w, y: box.y1 + out[2 * i + 1] * h }));
}

export function dlibFivePoints(points68: readonly Point[]): Point[] {
  return DLIB_FIVE_FROM_68.map((i) => points68[i]);
}

/** dlib's five points of each face (one model run per face: the package's model takes batch 1). */
export async function fivePoints(ort: Ort, landmarker: Session, img: RgbaImage, faces: readonly Box[]): Promise<Point[][]> {
  const out: Point[][] = [];
  for (const f of faces) {
    const region = landmarkRegion(f, img.width, img.height);
    const input = new ort.Tensor("float32", landmarkInput(img, f), [1, 1, LANDMARKER.size, LANDMARKER.size]);
    const res = await landmarker.run({ [LANDMARKER.inputName]: input });
    out.push(dlibFivePoints(decodeLandmarks(res[LANDMARKER.outputName].data as Float32Array, region)));
  }
  return out;
}
