// CLIP's vision tower in the pipeline: CLIP's preprocessing (short side to 224, centre crop, CLIP's mean and std),
// the shape check that refuses anything but [N,3,224,224] → [N,D], and embeddings from a CLIP-family stand-in built
// here with random weights, read into FAIntbench's instrument through a text file of the same size.
import * as ort from "onnxruntime-web";
import { describe, expect, it } from "vitest";
import { clipCropRegion, clipEmbed, clipInput, clipVisionLayout } from "../lib/faces/clip";
import { ModelLayoutError } from "../lib/faces/classifier";
import { clipReading, clipTextFileSchema } from "../lib/suites/faintbench/clip-instrument";
import { CLIP_TEXTS, relationTexts } from "../lib/suites/faintbench/clip-rules";
import { buildClipStandIn } from "./helpers/clip-standin";

const session = (bytes: Uint8Array) => ort.InferenceSession.create(bytes, { executionProviders: ["wasm"], logSeverityLevel: 3 });
const solid = (width: number, height: number, rgb: [number, number, number]) => ({
  width,
  height,
  data: Uint8Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : rgb[i % 4])),
});

describe("CLIP vision tower", () => {
  it("crops as Resize(224) then CenterCrop(224) do, in source pixels", () => {
    expect(clipCropRegion(224, 224)).toEqual({ x1: 0, y1: 0, x2: 224, y2: 224 });
    // 1024 × 512 → 448 × 224, crop left 112 → source x 256 … 768
    expect(clipCropRegion(1024, 512)).toEqual({ x1: 256, y1: 0, x2: 768, y2: 512 });
    // 300 × 301 → 224 × int(224.746…) = 224 × 224: no crop
    expect(clipCropRegion(300, 301)).toMatchObject({ x1: 0, y1: 0 });
  });

  it("normalises with CLIP's mean and std", () => {
    const t = clipInput(solid(300, 200, [255, 0, 128]));
    expect(t).toHaveLength(3 * 224 * 224);
    expect(t[0]).toBeCloseTo((1 - 0.48145466) / 0.26862954, 5);
    expect(t[224 * 224]).toBeCloseTo((0 - 0.4578275) / 0.26130258, 5);
    expect(t[2 * 224 * 224 + 5000]).toBeCloseTo((128 / 255 - 0.40821073) / 0.27577711, 5);
  });

  it("refuses a model whose input or output is not CLIP's, and embeds a batch with one that is", async () => {
    await expect(session(buildClipStandIn({ inputShape: [3, 240, 320] })).then(clipVisionLayout)).rejects.toThrow(ModelLayoutError);
    const s = await session(buildClipStandIn({ dim: 8 }));
    const layout = clipVisionLayout(s);
    expect(layout).toEqual({ input: "pixel_values", output: "image_embeds", dim: 8 });
    const [a, b, a2] = await clipEmbed(ort, s, layout, [solid(224, 224, [200, 30, 30]), solid(320, 240, [30, 30, 200]), solid(448, 448, [200, 30, 30])]);
    expect(a).toHaveLength(8);
    expect(a.every(Number.isFinite)).toBe(true);
    expect(a).not.toEqual(b);
    // The same picture at twice the size is the same input after CLIP's resize.
    a.forEach((x, i) => expect(a2[i]).toBeCloseTo(x, 4));

    // Into FAIntbench's instrument: a text file of the same size (random here, as the stand-in is).
    const texts = [...Object.values(CLIP_TEXTS).flat(), ...(["left", "right"] as const).flatMap((side) => Object.values(relationTexts(side)).flat())];
    const file = clipTextFileSchema.parse({
      model: "stand-in",
      weightsSha256: "0".repeat(64),
      logitScale: 100,
      dim: 8,
      texts: Object.fromEntries(texts.map((t, i) => [t, Array.from({ length: 8 }, (_, j) => Math.sin(i * 8 + j + 1))])),
    });
    const reading = clipReading(file, a, "one");
    if (reading?.kind === "one") for (const v of Object.values(reading.probs)) expect(v.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 9);
    await s.release();
  });
});
