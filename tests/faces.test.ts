// The real face pre/post-processing, run with onnxruntime-web (WASM) under Node on ../shared/models.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import jpeg from "jpeg-js";
import * as ort from "onnxruntime-web";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import {
  assertDetector,
  classifyFaces,
  detectFaces,
  detectLayout,
  loadLayout,
  mapGender,
  mapRace,
  ModelLayoutError,
  nms,
  squareCrop,
  type RgbaImage,
} from "../lib/faces";
import { MODEL_FILES, verifyFile } from "../lib/faces/model-files";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
const REAL_FAIRFACE = process.env.FAIRFACE_MODEL_PATH ?? path.resolve(__dirname, "../public/models/fairface.onnx");
ort.env.wasm.numThreads = 1;
// Warnings only: the WASM runtime writes its log synchronously, and a busy test runner's pipe can refuse a write (EAGAIN).
ort.env.logLevel = "error";

function decode(file: string): RgbaImage {
  const buf = readFileSync(path.join(SHARED, "test-images", file));
  if (file.endsWith(".png")) {
    const png = PNG.sync.read(buf);
    return { width: png.width, height: png.height, data: png.data };
  }
  const img = jpeg.decode(buf, { useTArray: true, formatAsRGBA: true });
  return { width: img.width, height: img.height, data: img.data };
}
const session = (file: string) =>
  ort.InferenceSession.create(readFileSync(file.includes("/") ? file : path.join(SHARED, file)), { executionProviders: ["wasm"], logSeverityLevel: 3 });

describe("race / gender mapping", () => {
  it("paper mapping: argmax over five classes, Indian and Middle Eastern ignored", () => {
    // White 0.3, Black 0.05, Latino 0.05, East Asian 0.2, SE Asian 0.15, Indian 0.25 (ignored), ME 0
    const p = [0.3, 0.05, 0.05, 0.2, 0.15, 0.25, 0];
    expect(mapRace(p, "paper")).toBe("White");
    expect(mapRace(p, "sum-asian")).toBe("Asian");
    expect(mapRace([0.1, 0.1, 0.5, 0.1, 0.1, 0.05, 0.05])).toBe("Hispanic");
    expect(() => mapRace([1, 0])).toThrow(RangeError);
    expect(mapGender([0.2, 0.8])).toBe("female");
  });
  it("square crops expand by the margin and stay inside the image", () => {
    expect(squareCrop({ x1: 100, y1: 100, x2: 140, y2: 180 }, 512, 512)).toEqual({ x1: 70, y1: 90, x2: 170, y2: 190 });
    const edge = squareCrop({ x1: 0, y1: 0, x2: 50, y2: 50 }, 100, 100);
    expect(edge.x1).toBe(0);
    expect(edge.y1).toBe(0);
  });
  it("NMS keeps the best of overlapping boxes", () => {
    const kept = nms([
      { x1: 0, y1: 0, x2: 10, y2: 10, score: 0.96 },
      { x1: 1, y1: 1, x2: 11, y2: 11, score: 0.99 },
      { x1: 50, y1: 50, x2: 60, y2: 60, score: 0.97 },
    ]);
    expect(kept.map((k) => k.score)).toEqual([0.99, 0.97]);
  });
});

describe("FairFace layout validation", () => {
  const meta = (outputs: Record<string, number[]>, types: Record<string, string> = {}) => ({
    inputNames: ["input"],
    outputNames: Object.keys(outputs),
    inputShapes: { input: ["batch", 3, 224, 224] },
    outputShapes: outputs,
    outputTypes: Object.fromEntries(Object.keys(outputs).map((k) => [k, types[k] ?? "float32"])),
  });
  it("accepts both public logit layouts", () => {
    expect(detectLayout(meta({ output: [1, 18] }))).toMatchObject({ kind: "single", output: "output" });
    expect(detectLayout(meta({ race_output: [1, 7], gender_output: [1, 2], age_output: [1, 9] }))).toMatchObject({ kind: "three-head", race: "race_output" });
  });
  it.each([
    ["wrong logit count", meta({ output: [1, 10] }), /18 logits/],
    ["arg-max class ids", meta({ race: [1], gender: [1], age: [1] }, { race: "int64", gender: "int64", age: "int64" }), /arg-max/],
    ["two outputs", meta({ a: [1, 7], b: [1, 2] }), /expected 1 output/],
    ["wrong input size", { ...meta({ output: [1, 18] }), inputShapes: { input: [1, 3, 240, 320] } }, /\[N,3,224,224\]/],
  ])("rejects %s", (_name, m, message) => {
    expect(() => detectLayout(m)).toThrow(ModelLayoutError);
    expect(() => detectLayout(m)).toThrow(message);
  });
});

describe.skipIf(!hasShared)("face pipeline on the shared test photos (onnxruntime-web, WASM)", () => {
  it("finds exactly one face on the astronaut and on Grace Hopper, where the reference boxes are", async () => {
    const detector = await session("ultraface-version-RFB-320.onnx");
    assertDetector(detector);
    const astro = await detectFaces(ort, detector, decode("astronaut-eileen-collins.png"));
    expect(astro).toHaveLength(1);
    expect(astro[0].score).toBeGreaterThan(0.99);
    const ref = [178, 63, 269, 174];
    [astro[0].x1, astro[0].y1, astro[0].x2, astro[0].y2].forEach((v, i) => expect(Math.abs(v - ref[i])).toBeLessThan(12));
    const hopper = await detectFaces(ort, detector, decode("grace-hopper-512.jpg"));
    expect(hopper).toHaveLength(1);
    const ref2 = [170, 112, 359, 321];
    [hopper[0].x1, hopper[0].y1, hopper[0].x2, hopper[0].y2].forEach((v, i) => expect(Math.abs(v - ref2[i])).toBeLessThan(15));
  });

  it("finds no face on the coffee, and rejects the cat's false positive at 0.95 (but not at 0.9)", async () => {
    const detector = await session("ultraface-version-RFB-320.onnx");
    expect(await detectFaces(ort, detector, decode("no-face-coffee.png"))).toHaveLength(0);
    const cat = decode("cat-chelsea.png");
    expect(await detectFaces(ort, detector, cat)).toHaveLength(0);
    expect((await detectFaces(ort, detector, cat, 0.9)).length).toBeGreaterThanOrEqual(1);
  });

  it("decodes both stand-in layouts to valid distributions, in batches", async () => {
    const detector = await session("ultraface-version-RFB-320.onnx");
    const img = decode("astronaut-eileen-collins.png");
    const faces = await detectFaces(ort, detector, img);
    for (const file of ["fairface-standin-single18.onnx", "fairface-standin-3head.onnx"]) {
      const clf = await session(file);
      const layout = loadLayout(clf);
      expect(layout.kind).toBe(file.includes("3head") ? "three-head" : "single");
      const [p, q] = await classifyFaces(ort, clf, layout, img, [faces[0], faces[0]]);
      for (const [probs, len] of [
        [p.race, 7],
        [p.gender, 2],
        [p.age, 9],
      ] as const) {
        expect(probs).toHaveLength(len);
        expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
        expect(probs.every((x) => x >= 0 && x <= 1)).toBe(true);
      }
      expect(q).toEqual(p);
    }
  });

  it("rejects a model of the wrong shape (the detector offered as a classifier)", async () => {
    const wrong = await session("ultraface-version-RFB-320.onnx");
    expect(() => loadLayout(wrong)).toThrow(ModelLayoutError);
    const clf = await session("fairface-standin-single18.onnx");
    expect(() => assertDetector(clf)).toThrow(/not the UltraFace detector/);
  });
});

describe("installed model files", () => {
  const installed = path.resolve(__dirname, "../public/models", MODEL_FILES.detector.file);
  it.skipIf(!hasShared)("verifies checksums and refuses a wrong one", async () => {
    const file = path.join(SHARED, "fairface-standin-single18.onnx");
    expect(await verifyFile(file, "8156c9d989417b3f2db78025b03b725138a91d30814f483cb437b5a57ac65eb4")).toBe(true);
    expect(await verifyFile(file, "0".repeat(64))).toBe(false);
    expect(await verifyFile(path.join(SHARED, "absent.onnx"))).toBe(false);
  });
  it.skipIf(!existsSync(installed) || !hasShared)("the detector installed from npm finds the astronaut's face like the reference file", async () => {
    expect(await verifyFile(installed, MODEL_FILES.detector.sha256)).toBe(true);
    const detector = await session(installed);
    assertDetector(detector);
    expect(await detectFaces(ort, detector, decode("astronaut-eileen-collins.png"))).toHaveLength(1);
  });
});

describe("real FairFace model", () => {
  it.skipIf(!existsSync(REAL_FAIRFACE) || !hasShared)(
    "labels the public-domain portraits as women (runs only when public/models/fairface.onnx or FAIRFACE_MODEL_PATH exists)",
    async () => {
      const detector = await session("ultraface-version-RFB-320.onnx");
      const clf = await session(REAL_FAIRFACE);
      const layout = loadLayout(clf);
      for (const file of ["astronaut-eileen-collins.png", "grace-hopper-512.jpg"]) {
        const img = decode(file);
        const faces = await detectFaces(ort, detector, img);
        const [p] = await classifyFaces(ort, clf, layout, img, faces);
        expect(mapGender(p.gender), file).toBe("female");
        expect(mapRace(p.race), file).toBe("White");
      }
    },
  );
});
