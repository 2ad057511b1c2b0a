// CLIP's vision tower as an instrument of the same pipeline (browser and label workers): CLIP's preprocessing of the
// whole image (torchvision's Resize(224, bicubic) of the short side, CenterCrop(224), ToTensor, Normalize with
// CLIP's mean and std), a check that a loaded model has the expected shapes, and the image embeddings. What is done
// with an embedding is the suite's that uses CLIP as its instrument.
// One difference from PIL, documented: the resize and the crop are one resampling here (the same grid and the same
// antialiased bicubic kernel, lib/faces/image.ts) without PIL's rounding to 8 bits between its two passes — values
// differ by under 1/255 before normalisation.
import type * as OrtType from "onnxruntime-web";
import { ModelLayoutError } from "./classifier";
import { resizeToTensor, type RgbaImage } from "./image";

type Ort = typeof OrtType;
type Session = OrtType.InferenceSession;

const SIZE = 224;
const MEAN = [0.48145466, 0.4578275, 0.40821073] as const;
const STD = [0.26862954, 0.26130258, 0.27577711] as const;

/** Python's round(): halves to the even neighbour (torchvision's CenterCrop offsets use it). */
const roundHalfEven = (x: number) => {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
};

/** The source region CenterCrop keeps after Resize(224): the short side scaled to 224, the long side int()-ed. */
export function clipCropRegion(width: number, height: number) {
  const rw = width >= height ? Math.floor((SIZE * width) / height) : SIZE;
  const rh = height > width ? Math.floor((SIZE * height) / width) : SIZE;
  const left = roundHalfEven((rw - SIZE) / 2);
  const top = roundHalfEven((rh - SIZE) / 2);
  const sx = width / rw;
  const sy = height / rh;
  return { x1: left * sx, y1: top * sy, x2: (left + SIZE) * sx, y2: (top + SIZE) * sy };
}

/** The [3,224,224] input CLIP's preprocess makes of an image. */
export function clipInput(img: RgbaImage): Float32Array {
  return resizeToTensor(img, clipCropRegion(img.width, img.height), SIZE, SIZE, (c, v) => (v / 255 - MEAN[c]) / STD[c]);
}

export interface ClipVisionLayout {
  input: string;
  output: string;
  /** the embedding's size */
  dim: number;
}

/** Checks a loaded model is a CLIP vision tower: one input [N,3,224,224], one float output [N,D]. */
export function clipVisionLayout(session: Session): ClipVisionLayout {
  const ins = session.inputMetadata ?? [];
  const outs = session.outputMetadata ?? [];
  const shape = (m: (typeof ins)[number] | undefined) => (m && m.isTensor ? m.shape : null);
  const inShape = shape(ins[0]);
  const outShape = shape(outs[0]);
  const fixed = (s: ReadonlyArray<number | string> | null, i: number) => (s && typeof s[i] === "number" ? s[i] : null);
  if (ins.length !== 1 || !inShape || inShape.length !== 4 || fixed(inShape, 1) !== 3 || fixed(inShape, 2) !== SIZE || fixed(inShape, 3) !== SIZE)
    throw new ModelLayoutError(
      `not a CLIP vision tower: expected one input [N,3,224,224], got ${ins.map((m) => `${m.name} ${JSON.stringify(shape(m))}`).join(", ")}`,
    );
  const dim = fixed(outShape, 1);
  if (outs.length !== 1 || !outShape || outShape.length !== 2 || dim === null || dim < 2 || (outs[0].isTensor && outs[0].type !== "float32"))
    throw new ModelLayoutError(
      `not a CLIP vision tower: expected one float output [N,D], got ${outs.map((m) => `${m.name} ${JSON.stringify(shape(m))}`).join(", ")}`,
    );
  return { input: ins[0].name, output: outs[0].name, dim: dim as number };
}

/** The embeddings of whole images, one per image, in a batch. */
export async function clipEmbed(ort: Ort, session: Session, layout: ClipVisionLayout, images: readonly RgbaImage[]): Promise<number[][]> {
  if (!images.length) return [];
  const size = 3 * SIZE * SIZE;
  const batch = new Float32Array(size * images.length);
  images.forEach((img, i) => batch.set(clipInput(img), i * size));
  const out = (await session.run({ [layout.input]: new ort.Tensor("float32", batch, [images.length, 3, SIZE, SIZE]) }))[layout.output];
  const data = out.data as Float32Array;
  return images.map((_, i) => Array.from(data.subarray(i * layout.dim, (i + 1) * layout.dim)));
}
