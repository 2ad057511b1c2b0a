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
 * One image: detect every face, classify each — on FairFace's aligned chips when a landmarker is given (the
 * default of every labeller), on square crops otherwise.
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
  const points = landmarker ? await fivePoints(ort, landmarker, img, faces) : undefined;
  const probs = await classifyFaces(ort, classifier, layout, img, faces, points);
  return faces.map((f, i) => ({ ...f, probabilities: probs[i], ...(points ? { landmarks: points[i] } : {}) }));
}

export function loadLayout(session: Session): FairFaceLayout {
  return detectLayout(sessionMetadata(session));
}
