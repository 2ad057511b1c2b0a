// Detection + classification with onnxruntime sessions. The same code runs in the browser (onnxruntime-web,
// WebGPU or WASM) and in Node tests (onnxruntime-web's WASM backend): pass the `ort` module in.
import type * as OrtType from "onnxruntime-web";
import {
  classifierInput,
  decodeClassifier,
  detectLayout,
  ModelLayoutError,
  type FaceProbabilities,
  type FairFaceLayout,
  type ModelMetadata,
} from "./classifier";
import { DEFAULT_DETECTION_THRESHOLD, DETECTOR, decodeDetections, detectorInput, type Detection } from "./detector";
import type { Box, RgbaImage } from "./image";
import { alignedClassifierInput } from "./chip";
import { fivePoints, type Point } from "./landmarks";
import { fairfacePreResize } from "./resize";

type Ort = typeof OrtType;
type Session = OrtType.InferenceSession;

function sessionMetadata(session: Session): ModelMetadata {
  const shapes = (list: Session["inputMetadata"]) => Object.fromEntries(list.map((m) => [m.name, m.isTensor && m.shape.length ? m.shape : null]));
  const types = (list: Session["outputMetadata"]) => Object.fromEntries(list.map((m) => [m.name, m.isTensor ? m.type : null]));
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    inputShapes: shapes(session.inputMetadata ?? []),
    outputShapes: shapes(session.outputMetadata ?? []),
    outputTypes: types(session.outputMetadata ?? []),
  };
}

/** Checks that a loaded session is the UltraFace detector this pipeline expects. */
export function assertDetector(session: Session) {
  const { inputNames, outputNames } = session;
  if (!inputNames.includes(DETECTOR.inputName) || !outputNames.includes(DETECTOR.scoresName) || !outputNames.includes(DETECTOR.boxesName))
    throw new ModelLayoutError(`not the UltraFace detector: inputs ${inputNames.join(", ")}, outputs ${outputNames.join(", ")}`);
}

export async function detectFaces(ort: Ort, detector: Session, img: RgbaImage, threshold = DEFAULT_DETECTION_THRESHOLD): Promise<Detection[]> {
  const input = new ort.Tensor("float32", detectorInput(img), [1, 3, DETECTOR.height, DETECTOR.width]);
  const out = await detector.run({ [DETECTOR.inputName]: input });
  return decodeDetections(out[DETECTOR.scoresName].data as Float32Array, out[DETECTOR.boxesName].data as Float32Array, img.width, img.height, threshold);
}

/**
 * Classifies faces from FairFace's aligned chips when each face's five landmarks are given (lib/faces/chip.ts), from
 * square crops of the boxes otherwise.
 */
export async function classifyFaces(
  ort: Ort,
  classifier: Session,
  layout: FairFaceLayout,
  img: RgbaImage,
  faces: Box[],
  landmarks?: readonly Point[][],
): Promise<FaceProbabilities[]> {
  if (!faces.length) return [];
  if (landmarks && landmarks.length !== faces.length) throw new Error("one set of landmarks per face");
  const size = 3 * 224 * 224;
  const batch = new Float32Array(size * faces.length);
  faces.forEach((f, i) => batch.set(landmarks ? alignedClassifierInput(img, landmarks[i]) : classifierInput(img, f), i * size));
  const out = await classifier.run({ [layout.input]: new ort.Tensor("float32", batch, [faces.length, 3, 224, 224]) });
  const outputs = Object.fromEntries(Object.entries(out).map(([k, t]) => [k, { data: t.data as Float32Array, dims: t.dims }]));
  return faces.map((_, i) => decodeClassifier(layout, outputs, i));
}

export interface LabelledFace extends Detection {
  probabilities: FaceProbabilities;
  /** dlib's five points the chip was aligned on (absent for square crops) */
  landmarks?: Point[];
}

/**
 * Where a point of the pre-resized image lies on the original: dlib's resize maps output column c to input column
 * c·(W − 1)/(w − 1) (rows alike), so boxes and landmarks are stored on the image as the reviewer sees it.
 */
function mapping(from: RgbaImage, to: RgbaImage) {
  const sx = (to.width - 1) / Math.max(from.width - 1, 1);
  const sy = (to.height - 1) / Math.max(from.height - 1, 1);
  return {
    box: (b: Box): Box => ({ x1: b.x1 * sx, y1: b.y1 * sy, x2: b.x2 * sx, y2: b.y2 * sy }),
    point: (p: Point): Point => ({ x: p.x * sx, y: p.y * sy }),
  };
}

/**
 * One image: detect every face, classify each — on FairFace's aligned chips when a landmarker is given (the
 * default of every labeller), cut as predict.py cuts them: from the image resized to 800 px on its longer side
 * (lib/faces/resize.ts), with the landmarks placed there, the points returned on the original; on square crops of
 * the image as it is otherwise. Detection runs on the image as it is: the detector is UltraFace, not predict.py's
 * dlib CNN, and scales its input to 320 × 240 itself (a detour through 800 px would only resample it twice).
 */
export async function labelImage(
  ort: Ort,
  detector: Session,
  classifier: Session,
  layout: FairFaceLayout,
  img: RgbaImage,
  threshold?: number,
  landmarker?: Session | null,
): Promise<LabelledFace[]> {
  const faces = await detectFaces(ort, detector, img, threshold);
  if (!landmarker) {
    const probs = await classifyFaces(ort, classifier, layout, img, faces);
    return faces.map((f, i) => ({ ...f, probabilities: probs[i] }));
  }
  const work = fairfacePreResize(img);
  const there = faces.map(mapping(img, work).box);
  const points = await fivePoints(ort, landmarker, work, there);
  const probs = await classifyFaces(ort, classifier, layout, work, there, points);
  const back = mapping(work, img);
  return faces.map((f, i) => ({ ...f, probabilities: probs[i], landmarks: points[i].map(back.point) }));
}

/**
 * A face whose box a person drew on the original image, classified the way the labeller cuts faces: with a
 * landmarker, on the pre-resized image (the box carried there and back); without one, a square crop.
 */
export async function classifyDrawnFace(
  ort: Ort,
  classifier: Session,
  layout: FairFaceLayout,
  img: RgbaImage,
  box: Box,
  landmarker?: Session | null,
): Promise<FaceProbabilities> {
  if (!landmarker) return (await classifyFaces(ort, classifier, layout, img, [box]))[0];
  const work = fairfacePreResize(img);
  const there = mapping(img, work).box(box);
  const points = await fivePoints(ort, landmarker, work, [there]);
  return (await classifyFaces(ort, classifier, layout, work, [there], points))[0];
}

export function loadLayout(session: Session): FairFaceLayout {
  return detectLayout(sessionMetadata(session));
}
