// FairFace (ResNet-34) classifier: input 224×224 RGB, ImageNet mean/std, NCHW. Two public ONNX layouts:
// one output [N,18] (0–6 race, 7–8 gender, 9–17 age) or three heads race [N,7], gender [N,2], age [N,9].
// Anything else (e.g. exports that emit arg-max class ids) is rejected at load with a clear message.
import { resizeToTensor, squareCrop, type Box, type RgbaImage } from "./image";
import * as libm from "../core/libm";

const CLASSIFIER_SIZE = 224;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/** ImageNet normalisation of one 0–255 channel value, FairFace's input scale. */
export const fairfaceNormalise = (c: 0 | 1 | 2, v: number) => (v / 255 - MEAN[c]) / STD[c];

/** The square-crop input: the detector's box, +25 % and made square (not FairFace's aligned chips: ./chip.ts). */
export function classifierInput(img: RgbaImage, face: Box, margin = 0.25): Float32Array {
  const crop = squareCrop(face, img.width, img.height, margin);
  return resizeToTensor(img, crop, CLASSIFIER_SIZE, CLASSIFIER_SIZE, fairfaceNormalise);
}

export type FairFaceLayout =
  { kind: "single"; input: string; output: string } | { kind: "three-head"; input: string; race: string; gender: string; age: string };

export interface ModelMetadata {
  inputNames: readonly string[];
  outputNames: readonly string[];
  /** static dims per name where the runtime exposes them (null = unknown / dynamic) */
  inputShapes?: Record<string, ReadonlyArray<number | string> | null>;
  outputShapes?: Record<string, ReadonlyArray<number | string> | null>;
  outputTypes?: Record<string, string | null>;
}

export class ModelLayoutError extends Error {}

const lastDim = (shape: ReadonlyArray<number | string> | null | undefined) => (shape && shape.length ? shape[shape.length - 1] : null);

/** Identifies the model's layout from its names and shapes, or throws a ModelLayoutError saying what is wrong. */
export function detectLayout(meta: ModelMetadata): FairFaceLayout {
  if (meta.inputNames.length !== 1) throw new ModelLayoutError(`a FairFace model has one input; this one has ${meta.inputNames.length}`);
  const input = meta.inputNames[0];
  const inShape = meta.inputShapes?.[input];
  if (inShape && inShape.length === 4) {
    const [, c, h, w] = inShape;
    if ((typeof c === "number" && c !== 3) || (typeof h === "number" && h !== CLASSIFIER_SIZE) || (typeof w === "number" && w !== CLASSIFIER_SIZE))
      throw new ModelLayoutError(`input must be [N,3,224,224]; this model's is [${inShape.join(",")}]`);
  } else if (inShape) throw new ModelLayoutError(`input must be [N,3,224,224]; this model's is [${inShape.join(",")}]`);

  for (const name of meta.outputNames) {
    const t = meta.outputTypes?.[name];
    if (t && t !== "float32") throw new ModelLayoutError(`output "${name}" is ${t}; FairFace logits must be float32 (arg-max exports are not supported)`);
  }
  if (meta.outputNames.length === 1) {
    const output = meta.outputNames[0];
    const d = lastDim(meta.outputShapes?.[output]);
    if (d !== null && d !== 18) throw new ModelLayoutError(`single-output FairFace models give 18 logits; "${output}" gives ${d}`);
    return { kind: "single", input, output };
  }
  if (meta.outputNames.length === 3) {
    const find = (word: string, size: number) => {
      const name = meta.outputNames.find((n) => n.toLowerCase().includes(word));
      if (!name) throw new ModelLayoutError(`three-head FairFace models name a ${word} output; found ${meta.outputNames.join(", ")}`);
      const d = lastDim(meta.outputShapes?.[name]);
      if (d !== null && d !== size) throw new ModelLayoutError(`"${name}" must give ${size} logits, gives ${d}`);
      return name;
    };
    return { kind: "three-head", input, race: find("race", 7), gender: find("gender", 2), age: find("age", 9) };
  }
  throw new ModelLayoutError(
    `expected 1 output [N,18] or 3 outputs (race, gender, age); this model has ${meta.outputNames.length}: ${meta.outputNames.join(", ")}`,
  );
}

function softmax(logits: ArrayLike<number>): number[] {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
  const exps = Array.from(logits, (v) => libm.exp(v - max));
  const z = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / z);
}

export interface FaceProbabilities {
  race: number[];
  gender: number[];
  age: number[];
}

/** Splits one batch item's logits into per-head probabilities (softmax each head). */
export function decodeClassifier(
  layout: FairFaceLayout,
  outputs: Record<string, { data: ArrayLike<number>; dims: readonly number[] }>,
  batchIndex = 0,
): FaceProbabilities {
  const row = (name: string, size: number) => {
    const t = outputs[name];
    if (!t) throw new ModelLayoutError(`model did not return "${name}"`);
    const width = t.dims[t.dims.length - 1];
    if (width !== size) throw new ModelLayoutError(`"${name}" returned ${width} values, expected ${size}`);
    return Array.from({ length: size }, (_, i) => Number(t.data[batchIndex * size + i]));
  };
  if (layout.kind === "single") {
    const all = row(layout.output, 18);
    return { race: softmax(all.slice(0, 7)), gender: softmax(all.slice(7, 9)), age: softmax(all.slice(9, 18)) };
  }
  return { race: softmax(row(layout.race, 7)), gender: softmax(row(layout.gender, 2)), age: softmax(row(layout.age, 9)) };
}
