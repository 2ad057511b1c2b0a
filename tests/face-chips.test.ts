// FairFace's aligned chips: dlib's get_face_chip geometry and sampling, checked by hand, and the 68-point landmarker
// (installed by `npm install` from the same package as the detector) on the shared test photos.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as ort from "onnxruntime-web";
import { describe, expect, it } from "vitest";
import { classifyFaces, detectFaces, labelImage, loadLayout, ModelLayoutError, type RgbaImage } from "../lib/faces";
import { classifyDrawnFace } from "../lib/faces/pipeline";
import { fairfacePreResize } from "../lib/faces/resize";
import { extractChip, faceChipDetails, FAIRFACE_CHIP, pyramidDown, similarityTransform } from "../lib/faces/chip";
import { assertLandmarker, dlibFivePoints, fivePoints, landmarkRegion, type Point } from "../lib/faces/landmarks";
import { MODEL_FILES, verifyFile } from "../lib/faces/model-files";
import { decodeImage } from "../lib/faces/node-labeller";

const SHARED = path.resolve(__dirname, "../../shared/models");
const LANDMARKER = path.resolve(__dirname, "../public/models", MODEL_FILES.landmarker.file);
ort.env.wasm.numThreads = 1;
ort.env.logLevel = "error";

const decode = (file: string): RgbaImage =>
  decodeImage(readFileSync(path.join(SHARED, "test-images", file)), file.endsWith(".png") ? "image/png" : "image/jpeg");
const session = (file: string) => ort.InferenceSession.create(readFileSync(file), { executionProviders: ["wasm"], logSeverityLevel: 3 });

// dlib's template, padded as get_face_chip_details pads it for a 300-px chip with padding 0.25.
const TEMPLATE = [
  [0.8595674595992, 0.2134981538014],
  [0.6460604764104, 0.2289674387677],
  [0.1205750620789, 0.2137274526848],
  [0.3340850613712, 0.2290642403242],
  [0.4901123135679, 0.6277975316475],
].map(([x, y]) => ({ x: ((0.25 + x) / 1.5) * 300, y: ((0.25 + y) / 1.5) * 300 }));

describe("dlib's chip geometry", () => {
  it("recovers a known similarity transform exactly, and never a reflection", () => {
    const th = 0.3;
    const s = 1.7;
    const to = TEMPLATE.map((p) => ({ x: s * (Math.cos(th) * p.x - Math.sin(th) * p.y) + 12, y: s * (Math.sin(th) * p.x + Math.cos(th) * p.y) - 5 }));
    const t = similarityTransform(TEMPLATE, to);
    expect(t.m[0][0]).toBeCloseTo(s * Math.cos(th), 10);
    expect(t.m[1][0]).toBeCloseTo(s * Math.sin(th), 10);
    expect(t.b.x).toBeCloseTo(12, 8);
    expect(t.b.y).toBeCloseTo(-5, 8);
    // a mirrored target: the best proper similarity keeps det > 0
    const mirrored = similarityTransform(
      TEMPLATE,
      TEMPLATE.map((p) => ({ x: -p.x, y: p.y })),
    );
    expect(mirrored.m[0][0] * mirrored.m[1][1] - mirrored.m[0][1] * mirrored.m[1][0]).toBeGreaterThanOrEqual(0);
  });

  it("places the extraction rectangle as chip_details does: the chip scaled, centred where the chip's centre lands", () => {
    // Landmarks exactly at the padded template scaled by 2 and shifted by (100, 50), no rotation.
    const pts = TEMPLATE.map((p) => ({ x: 2 * p.x + 100, y: 2 * p.y + 50 }));
    const d = faceChipDetails(pts);
    expect(d.angle).toBeCloseTo(0, 12);
    expect(d.size).toBe(300);
    // centre: 2·150 + (100, 50); width: 300·2 − 1 (a drectangle is inclusive)
    expect((d.rect.left + d.rect.right) / 2).toBeCloseTo(400, 9);
    expect((d.rect.top + d.rect.bottom) / 2).toBeCloseTo(350, 9);
    expect(d.rect.right - d.rect.left).toBeCloseTo(599, 9);
    expect(() => faceChipDetails(pts.slice(0, 4))).toThrow(/five landmarks/);
  });

  it("samples bilinearly at chip scale, black outside the image, truncating to 8 bits", () => {
    // A 40×40 horizontal ramp: 5·x in red, 200 in green.
    const w = 40;
    const data = new Uint8ClampedArray(w * w * 4);
    for (let y = 0; y < w; y++) for (let x = 0; x < w; x++) data.set([5 * x, 200, 0, 255], (y * w + x) * 4);
    // A 10-px chip whose rectangle spans x 10.5…19.5 (inclusive width 10 → spacing 1), rows 0…9 shifted by 0.5.
    const chip = extractChip({ width: w, height: w, data }, { rect: { left: 10.5, top: -2, right: 19.5, bottom: 7 }, angle: 0, size: 10 });
    const px = (x: number, y: number) => Array.from(chip.data.slice((y * 10 + x) * 4, (y * 10 + x) * 4 + 4));
    expect(px(0, 5)).toEqual([52, 200, 0, 255]); // 5 · 10.5 = 52.5 → 52 (truncated, not rounded)
    expect(px(9, 5)).toEqual([97, 200, 0, 255]); // 5 · 19.5 = 97.5 → 97
    expect(px(3, 0)).toEqual([0, 0, 0, 255]); // row −2: outside the image, black
    expect(px(3, 2)).toEqual([67, 200, 0, 255]); // row 0, x = 13.5
  });

  it("descends dlib's [1,4,6,4,1] pyramid: integer sums, ÷256 truncated, (n−3)/2 outputs", () => {
    const w = 11;
    const img = { width: w, height: w, data: new Uint8Array(w * w * 3) };
    for (let i = 0; i < w * w; i++) img.data.set([100, (i % w) * 10, 255], i * 3);
    const d = pyramidDown(img);
    expect([d.width, d.height]).toEqual([4, 4]);
    // red constant 100 → 100·256/256; green ramp 10·x: output c = filter over x = 2c…2c+4 → 10·(2c+2)
    expect(d.data[0]).toBe(100);
    expect(d.data[1]).toBe(20);
    expect(d.data[3 * 3 + 1]).toBe(80);
    expect(d.data[2]).toBe(255); // (1+4+6+4+1)² = 256: a constant survives exactly
  });
});

// In CI the landmarker must be there (`npm install` places it): only a machine without the npm registry skips.
describe.skipIf((!existsSync(LANDMARKER) && process.env.CI !== "true") || !existsSync(SHARED))("the 68-point landmarker on the test photos", () => {
  it("is the packaged file, and is refused for anything else", async () => {
    expect(await verifyFile(LANDMARKER, MODEL_FILES.landmarker.sha256)).toBe(true);
    assertLandmarker(await session(LANDMARKER));
    expect(() => assertLandmarker(null as never)).toThrow();
    await expect(session(path.join(SHARED, "ultraface-version-RFB-320.onnx")).then(assertLandmarker)).rejects.toThrow(ModelLayoutError);
  });

  it("puts the eyes in the upper face, the subject's left eye on the image's right, the nose below them", async () => {
    const [det, lm] = await Promise.all([session(path.join(SHARED, "ultraface-version-RFB-320.onnx")), session(LANDMARKER)]);
    for (const file of ["astronaut-eileen-collins.png", "grace-hopper-512.jpg"]) {
      const img = decode(file);
      const [face] = await detectFaces(ort, det, img);
      const [[lo, li, ro, ri, nose]] = await fivePoints(ort, lm, img, [face]);
      const h = face.y2 - face.y1;
      for (const p of [lo, li, ro, ri]) {
        expect(p.y, file).toBeGreaterThan(face.y1);
        expect(p.y, file).toBeLessThan(face.y1 + 0.65 * h);
      }
      expect(lo.x, file).toBeGreaterThan(li.x);
      expect(li.x, file).toBeGreaterThan(ri.x);
      expect(ri.x, file).toBeGreaterThan(ro.x);
      expect(nose.y, file).toBeGreaterThan(Math.max(lo.y, ro.y));
      expect(nose.x, file).toBeGreaterThan(ro.x);
      expect(nose.x, file).toBeLessThan(lo.x);
      // the aligned chip puts the eyes where dlib's template does (±8 px of 300): a frontal face, little residual
      const d = faceChipDetails([lo, li, ro, ri, nose]);
      expect(d.size).toBe(FAIRFACE_CHIP.size);
      expect(Math.abs(d.angle), file).toBeLessThan(0.3);
    }
  });

  it("labels through the pipeline on aligned chips, and the chip differs from the square crop", async () => {
    const [det, lm, cls] = await Promise.all([
      session(path.join(SHARED, "ultraface-version-RFB-320.onnx")),
      session(LANDMARKER),
      session(path.join(SHARED, "fairface-standin-single18.onnx")),
    ]);
    const layout = loadLayout(cls);
    const img = decode("grace-hopper-512.jpg");
    const [aligned] = await labelImage(ort, det, cls, layout, img, undefined, lm);
    expect(aligned.landmarks).toHaveLength(5);
    // As predict.py: the chip is cut from the image resized to 800 px (512 → 800 here) with the landmarks placed there;
    // the points come back on the original (×511/799), so carrying them there again reproduces the label exactly.
    const work = fairfacePreResize(img);
    expect([work.width, work.height]).toEqual([800, 800]);
    const s = 799 / 511;
    const there = aligned.landmarks!.map((p) => ({ x: p.x * s, y: p.y * s }));
    const box = { x1: aligned.x1 * s, y1: aligned.y1 * s, x2: aligned.x2 * s, y2: aligned.y2 * s };
    const [again] = await classifyFaces(ort, cls, layout, work, [box], [there]);
    for (let i = 0; i < again.race.length; i++) expect(again.race[i]).toBeCloseTo(aligned.probabilities.race[i], 6);
    // … which is not what a chip cut from the image at its own size gives (the app before the pre-resize)
    const [unresized] = await classifyFaces(ort, cls, layout, img, [aligned], [aligned.landmarks!]);
    expect(unresized.race).not.toEqual(aligned.probabilities.race);
    // a box drawn on the original is classified the same way (the review page's hand-drawn faces)
    const drawn = await classifyDrawnFace(ort, cls, layout, img, aligned, lm);
    expect(drawn.race.length).toBe(aligned.probabilities.race.length);
    const [square] = await classifyFaces(ort, cls, layout, img, [aligned]);
    expect(square.race).not.toEqual(aligned.probabilities.race);
    await expect(classifyFaces(ort, cls, layout, img, [aligned], [])).rejects.toThrow(/one set of landmarks per face/);
  });
});

describe("landmarks helpers", () => {
  it("keeps the landmarker's region inside the image by moving it, and reads dlib's five off the 68", () => {
    expect(landmarkRegion({ x1: -10, y1: 5, x2: 40, y2: 45 }, 100, 100)).toEqual({ x1: 0, y1: 5, x2: 50, y2: 45 });
    expect(landmarkRegion({ x1: 80, y1: 80, x2: 120, y2: 110 }, 100, 100)).toEqual({ x1: 59, y1: 69, x2: 99, y2: 99 });
    const pts: Point[] = Array.from({ length: 68 }, (_, i) => ({ x: i, y: -i }));
    expect(dlibFivePoints(pts).map((p) => p.x)).toEqual([45, 42, 36, 39, 33]);
  });
});
