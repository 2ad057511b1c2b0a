// The server labeller runs the Label page's pipeline on onnxruntime-node: on the stand-in models and the test photos
// it finds the same faces as the browser's runtime (onnxruntime-web, WASM) — boxes within 1 px, every class
// probability within 1e-4 — and refuses a classifier without FairFace's outputs.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as ortWeb from "onnxruntime-web";
import { describe, expect, it } from "vitest";
import { labelImage, loadLayout } from "../lib/faces";
import { createNodeLabeller, decodeImage, labelPixels, modelFile } from "../lib/faces/node-labeller";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));
const PHOTOS = ["astronaut-eileen-collins.png", "grace-hopper-512.jpg", "cat-chelsea.png", "no-face-coffee.png"];

describe.skipIf(!hasShared)("node labeller (onnxruntime-node) against the browser's runtime (onnxruntime-web WASM)", () => {
  for (const standin of ["fairface-standin-single18.onnx", "fairface-standin-3head.onnx"]) {
    it(`labels the test photos as the browser does with ${standin}`, async () => {
      const detector = modelFile(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
      const classifier = modelFile(path.join(SHARED, standin));
      const node = await createNodeLabeller({ detector, classifier, threads: 2 });
      expect(node.runtime).toBe("node-cpu (2 threads)");
      ortWeb.env.wasm.numThreads = 1;
      ortWeb.env.logLevel = "error";
      const web = async (bytes: Uint8Array) => ortWeb.InferenceSession.create(bytes, { executionProviders: ["wasm"], logSeverityLevel: 3 });
      const wDet = await web(detector.bytes);
      const wCls = await web(classifier.bytes);
      const wLayout = loadLayout(wCls);
      let faces = 0;
      for (const photo of PHOTOS) {
        const bytes = readFileSync(path.join(SHARED, "test-images", photo));
        const img = decodeImage(bytes, photo.endsWith(".jpg") ? "image/jpeg" : "image/png");
        const ours = await labelPixels(node, img);
        const theirs = await labelImage(ortWeb, wDet, wCls, wLayout, img);
        expect(ours.length, photo).toBe(theirs.length);
        ours.forEach((f, i) => {
          const t = theirs[i];
          for (const k of ["x1", "y1", "x2", "y2"] as const) expect(Math.abs(f[k] - t[k]), `${photo} ${k}`).toBeLessThanOrEqual(1);
          for (const head of ["race", "gender", "age"] as const) {
            expect(f[head].length).toBe(t.probabilities[head].length);
            f[head].forEach((p, j) => expect(Math.abs(p - t.probabilities[head][j]), `${photo} ${head}[${j}]`).toBeLessThanOrEqual(1e-4));
          }
        });
        faces += ours.length;
      }
      // The portraits have faces; the cat and the coffee none.
      expect(faces).toBeGreaterThanOrEqual(2);
    });
  }

  it("refuses a classifier without FairFace's outputs, and a detector that is not UltraFace", async () => {
    const detector = modelFile(path.join(SHARED, "ultraface-version-RFB-320.onnx"));
    await expect(createNodeLabeller({ detector, classifier: detector })).rejects.toThrow(/\[N,3,224,224\]|FairFace/);
    await expect(createNodeLabeller({ detector: modelFile(path.join(SHARED, "fairface-standin-single18.onnx")), classifier: detector })).rejects.toThrow(
      /UltraFace/,
    );
  });
});
