// Labels every image of a run the way the Label page does, in Node: UltraFace, the 68-point landmarker for FairFace's
// aligned chips (the default) and the FairFace stand-in on onnxruntime-web (WASM), leased and saved through the
// engine. The engine module is passed in, so a test loads it
// after it has set FOF_DATA_DIR.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import jpeg from "jpeg-js";
import * as ort from "onnxruntime-web";
import { PNG } from "pngjs";
import type { PrismaClient } from "../../generated/prisma/client";
import { labelImage, loadLayout } from "../../lib/faces";

const SHARED_MODELS = path.resolve(__dirname, "../../../shared/models");
/** placed by `npm install` (scripts/setup-models.ts) */
const LANDMARKER = path.resolve(__dirname, "../../public/models/face-landmarks-68.onnx");

type Engine = Pick<typeof import("./services"), "leaseImages" | "saveLabels">;

export async function labelRun(prisma: PrismaClient, engine: Engine, dataDir: string, runId: string) {
  ort.env.wasm.numThreads = 1;
  // Warnings go through synchronous writes: a full pipe under a busy runner fails them (EAGAIN). Errors only.
  ort.env.logLevel = "error";
  const session = (f: string) => ort.InferenceSession.create(readFileSync(path.join(SHARED_MODELS, f)), { executionProviders: ["wasm"], logSeverityLevel: 3 });
  const detector = await session("ultraface-version-RFB-320.onnx");
  const classifier = await session("fairface-standin-single18.onnx");
  const classifierSha = createHash("sha256")
    .update(readFileSync(path.join(SHARED_MODELS, "fairface-standin-single18.onnx")))
    .digest("hex");
  const layout = loadLayout(classifier);
  const landmarkerBytes = readFileSync(LANDMARKER);
  const landmarker = await ort.InferenceSession.create(landmarkerBytes, { executionProviders: ["wasm"], logSeverityLevel: 3 });
  const landmarkerSha = createHash("sha256").update(landmarkerBytes).digest("hex");
  for (;;) {
    const lease = await engine.leaseImages(prisma, { runId, max: 16 });
    if (!lease.images.length) break;
    const results = [];
    for (const img of lease.images) {
      const row = await prisma.image.findUniqueOrThrow({ where: { id: img.id } });
      const bytes = readFileSync(path.join(dataDir, row.path));
      const pixels = row.mimeType === "image/jpeg" ? jpeg.decode(bytes, { useTArray: true }) : PNG.sync.read(bytes);
      const faces = await labelImage(
        ort,
        detector,
        classifier,
        layout,
        { width: pixels.width, height: pixels.height, data: pixels.data },
        undefined,
        landmarker,
      );
      results.push({
        imageId: img.id,
        faces: faces.map((f) => ({
          x1: f.x1,
          y1: f.y1,
          x2: f.x2,
          y2: f.y2,
          score: f.score,
          race: f.probabilities.race,
          gender: f.probabilities.gender,
          age: f.probabilities.age,
        })),
      });
    }
    await engine.saveLabels(prisma, {
      lease: lease.lease,
      classifier: { model: "fairface-standin-single18", sha256: classifierSha },
      detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
      chip: "dlib-5pt-800",
      landmarker: { model: "face-landmarks-68", sha256: landmarkerSha },
      runtime: "browser-wasm",
      results,
    });
  }
}
