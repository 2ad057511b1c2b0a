// `npm run bench:chips`: how much the way a face is cut changes its FairFace label — aligned chips (FairFace's own,
// lib/faces/chip.ts) against square crops of the detector's box — on the shared test photos, upright and turned,
// scaled and mirrored; how stable each cut keeps a label under those changes; and what the landmarks and the chip
// cost per face. Every classifier present is measured: the two FairFace stand-ins, a ResNet-34 with FairFace's
// shapes and random weights, and real FairFace when installed (FAIRFACE_MODEL_PATH or public/models/fairface.onnx).
// Results go to docs/BENCHMARKS.md with the machine, date and command.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { classifyFaces, detectFaces, type FaceProbabilities, type RgbaImage } from "../lib/faces";
import { alignedClassifierInput } from "../lib/faces/chip";
import { fivePoints } from "../lib/faces/landmarks";
import { labelImage } from "../lib/faces/pipeline";
import { fairfacePreResize } from "../lib/faces/resize";
import { MODEL_FILES } from "../lib/faces/model-files";
import { createNodeLabeller, decodeImage, modelFile } from "../lib/faces/node-labeller";
import { buildResNet34 } from "./bench-faces/resnet34";
import { writeBenchSection } from "./bench-section";

const root = process.cwd();
const shared = path.resolve(root, "../shared/models");
const PHOTOS = ["astronaut-eileen-collins.png", "grace-hopper-512.jpg"];
const ANGLES = [-30, -15, 0, 15, 30];
const SCALES = [0.6, 1];
const log = (m: string) => process.stderr.write(`[bench:chips] ${m}\n`);

/** The photo turned by `deg` about its centre, scaled, optionally mirrored; grey where nothing was (bilinear). */
function variant(img: RgbaImage, deg: number, scale: number, flip: boolean): RgbaImage {
  const { width: w, height: h } = img;
  const out = new Uint8ClampedArray(w * h * 4);
  const cos = Math.cos((-deg * Math.PI) / 180);
  const sin = Math.sin((-deg * Math.PI) / 180);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const dx = (flip ? w - 1 - x : x) - w / 2;
      const dy = y - h / 2;
      const sx = (cos * dx - sin * dy) / scale + w / 2;
      const sy = (sin * dx + cos * dy) / scale + h / 2;
      const o = (y * w + x) * 4;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) {
        out.set([128, 128, 128, 255], o);
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const p = (yy: number, xx: number) => img.data[(yy * w + xx) * 4 + c];
        out[o + c] = (1 - fy) * ((1 - fx) * p(y0, x0) + fx * p(y0, x0 + 1)) + fy * ((1 - fx) * p(y0 + 1, x0) + fx * p(y0 + 1, x0 + 1));
      }
      out[o + 3] = 255;
    }
  return { width: w, height: h, data: out };
}

const argmax = (p: number[]) => p.indexOf(Math.max(...p));
const ATTRS = ["race", "gender", "age"] as const;
const tv = (a: number[], b: number[]) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / 2;

interface Reading {
  photo: string;
  upright: boolean;
  square: FaceProbabilities;
  aligned: FaceProbabilities;
  /** as predict.py cuts it: the image resized to 800 px first (null: no face found there) */
  preResized: FaceProbabilities | null;
}

async function main() {
  const detector = path.join(root, "public/models", MODEL_FILES.detector.file);
  const landmarker = path.join(root, "public/models", MODEL_FILES.landmarker.file);
  if (!existsSync(detector) || !existsSync(landmarker)) throw new Error("detector or landmarker missing: run `npm run setup:models`");
  const cache = path.join(tmpdir(), "fof-bench");
  mkdirSync(cache, { recursive: true });
  const resnet = path.join(cache, "resnet34-fairface-random.onnx");
  if (!existsSync(resnet)) writeFileSync(resnet, buildResNet34());
  const real = [process.env.FAIRFACE_MODEL_PATH, path.join(root, "public/models/fairface.onnx")].find((f) => f && existsSync(f));
  const classifiers: Array<[string, string]> = [
    ["FairFace stand-in, one output (../shared/models)", path.join(shared, "fairface-standin-single18.onnx")],
    ["FairFace stand-in, three heads (../shared/models)", path.join(shared, "fairface-standin-3head.onnx")],
    ["ResNet-34, FairFace's shapes, random weights", resnet],
    ...(real ? ([["FairFace (installed weights)", real]] as Array<[string, string]>) : []),
  ];
  const photos = PHOTOS.map((f) => ({
    name: f,
    img: decodeImage(readFileSync(path.join(shared, "test-images", f)), f.endsWith(".png") ? "image/png" : "image/jpeg"),
  }));
  const variants = photos.flatMap((p) =>
    ANGLES.flatMap((a) =>
      SCALES.flatMap((s) => [false, true].map((flip) => ({ photo: p.name, upright: a === 0 && s === 1 && !flip, img: variant(p.img, a, s, flip) }))),
    ),
  );
  const rows: string[] = [];
  const preRows: string[] = [];
  let timing = "";
  for (const [label, file] of classifiers) {
    const l = await createNodeLabeller({ detector: modelFile(detector), classifier: modelFile(file), landmarker: modelFile(landmarker), threads: 1 });
    const readings: Reading[] = [];
    let missed = 0;
    let landmarkMs = 0;
    let chipMs = 0;
    let resizeMs = 0;
    for (const v of variants) {
      const faces = await detectFaces(l.ort, l.detector, v.img);
      if (!faces.length) {
        missed++;
        continue;
      }
      const face = faces.reduce((a, b) => (b.score > a.score ? b : a));
      let t = performance.now();
      const points = await fivePoints(l.ort, l.landmarker!, v.img, [face]);
      landmarkMs += performance.now() - t;
      t = performance.now();
      alignedClassifierInput(v.img, points[0]);
      chipMs += performance.now() - t;
      const [aligned] = await classifyFaces(l.ort, l.classifier, l.layout, v.img, [face], points);
      const [square] = await classifyFaces(l.ort, l.classifier, l.layout, v.img, [face]);
      t = performance.now();
      fairfacePreResize(v.img);
      resizeMs += performance.now() - t;
      const pre = await labelImage(l.ort, l.detector, l.classifier, l.layout, v.img, undefined, l.landmarker);
      const best = pre.length ? pre.reduce((a, b) => (b.score > a.score ? b : a)).probabilities : null;
      readings.push({ photo: v.photo, upright: v.upright, square, aligned, preResized: best });
    }
    const n = readings.length;
    const agree = (attr: (typeof ATTRS)[number]) => readings.filter((r) => argmax(r.square[attr]) === argmax(r.aligned[attr])).length;
    const meanTv = (attr: (typeof ATTRS)[number]) => readings.reduce((s, r) => s + tv(r.square[attr], r.aligned[attr]), 0) / n;
    // Stability: the share of changed variants whose label matches the same photo's upright label, per cut.
    const stable = (cut: "square" | "aligned") => {
      let same = 0;
      let total = 0;
      for (const r of readings) {
        const base = readings.find((u) => u.photo === r.photo && u.upright);
        if (!base || r.upright) continue;
        for (const a of ATTRS) {
          total++;
          if (argmax(r[cut][a]) === argmax(base[cut][a])) same++;
        }
      }
      return total ? `${((100 * same) / total).toFixed(0)} %` : "–";
    };
    rows.push(
      `| ${label} | ${n} | ${ATTRS.map((a) => `${agree(a)}/${n} (${((100 * agree(a)) / n).toFixed(0)} %)`).join(" | ")} | ${ATTRS.map((a) => meanTv(a).toFixed(3)).join(" / ")} | ${stable("square")} | ${stable("aligned")} |${missed ? ` ${missed} variants without a face |` : ""}`,
    );
    const pre = readings.filter((r) => r.preResized);
    const preAgree = (attr: (typeof ATTRS)[number]) => pre.filter((r) => argmax(r.preResized![attr]) === argmax(r.aligned[attr])).length;
    const preTv = (attr: (typeof ATTRS)[number]) => pre.reduce((s, r) => s + tv(r.preResized![attr], r.aligned[attr]), 0) / Math.max(pre.length, 1);
    preRows.push(
      `| ${label} | ${pre.length} | ${ATTRS.map((a) => `${preAgree(a)}/${pre.length} (${((100 * preAgree(a)) / Math.max(pre.length, 1)).toFixed(0)} %)`).join(" | ")} | ${ATTRS.map((a) => preTv(a).toFixed(3)).join(" / ")} |`,
    );
    timing ||= `Aligned chips cost, per face (onnxruntime-node, 1 thread): landmarks ${(landmarkMs / n).toFixed(1)} ms, chip + resize ${(chipMs / n).toFixed(1)} ms, predict.py's resize of the whole image to 800 px ${(resizeMs / n).toFixed(1)} ms per image — beside ≈ 96 ms for FairFace itself (bench:faces).`;
    log(`${label}: ${n} faces`);
  }
  const section = [
    `## Aligned chips against square crops (\`npm run bench:chips\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${cpus().length} × ${cpus()[0].model.trim()}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, no GPU; onnxruntime-node ${JSON.parse(readFileSync(path.join(root, "node_modules/onnxruntime-node/package.json"), "utf8")).version}.`,
    `Command: \`npm run bench:chips\`. Faces: the shared test photos with one face each (${PHOTOS.join(", ")}), each turned by ${ANGLES.join(", ")}°, scaled ×${SCALES.join(" / ×")}, mirrored or not (${variants.length} images); the detector's best face in each. "Agree": the same arg-max class from the aligned chip and the square crop (race over FairFace's 7, gender 2, age 9); "TV": mean total-variation distance between the two probability vectors; "stable": the share of turned / scaled / mirrored variants whose label equals the upright photo's, per cut.`,
    "",
    "| classifier | faces | agree race | agree gender | agree age | TV race / gender / age | stable, square | stable, aligned |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "Aligned chips as predict.py cuts them (landmarks and chip on the image resized to 800 px on its longer side with dlib's resize_image: what the labellers do, chip method dlib-5pt-800) against aligned chips cut from the image at its own size (dlib-5pt, the labels made before): the same arg-max class, and the mean TV distance.",
    "",
    "| classifier | faces | agree race | agree gender | agree age | TV race / gender / age |",
    "|---|---|---|---|---|---|",
    ...preRows,
    "",
    timing,
    "",
    real
      ? "Real FairFace weights were present: its row is the one that speaks about people."
      : "Read with care: FairFace's weights cannot be obtained on this machine, so no row here is about the people in the photos. The stand-ins pool colour (their labels follow the average colour of the cut, so they measure how different the two cuts' contents are), and the random ResNet-34 measures how far a deep network's output moves between the cuts. With real weights (`FAIRFACE_MODEL_PATH=… npm run bench:chips`) the same script gives the figure that matters: how often FairFace's label changes when its input is not the chip it was trained on.",
    "",
  ];
  process.stdout.write(section.join("\n") + "\n");
  writeBenchSection("## Aligned chips against square crops (`npm run bench:chips`)", section.join("\n"));
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
