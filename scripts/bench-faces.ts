// `npm run bench:faces`: faces/s of the Label page's pipeline (UltraFace detection + a FairFace-sized ResNet-34
// with random weights) in headless Chromium, on WASM with threads off and on, and on the SwiftShader WebGPU
// adapter. Results go to docs/BENCHMARKS.md with the machine, date and command.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, totalmem, tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { build } from "esbuild";
import { buildResNet34 } from "./bench-faces/resnet34";
import { nodeBench, nodeBenchPhotos } from "./bench-faces/node";
import { writeBenchSection } from "./bench-section";

const root = process.cwd();
const shared = path.resolve(root, "../shared/models");
const images = ["astronaut-eileen-collins.png", "grace-hopper-512.jpg"];
const FACES = Number(process.env.BENCH_FACES ?? 20);
const WEBGPU_FACES = Number(process.env.BENCH_WEBGPU_FACES ?? 4);
/** Per-backend limit: SwiftShader compiles and runs every WGSL kernel on the CPU, which can take very long. */
const LIMIT_S = Number(process.env.BENCH_LIMIT_S ?? 900);
const ONLY = process.env.BENCH_ONLY; // wasm | webgpu | node: one backend (diagnosis)
/** ResNet-34 at 224 × 224: 3.6 G multiply-adds per face (the usual "3.6 GFLOPs"). */
const MACS_PER_FACE = 3.6e9;
const log = (m: string) => process.stderr.write(`[bench:faces] ${m}\n`);

async function main() {
  const detector = [path.join(root, "public/models/ultraface-rfb-320.onnx"), path.join(shared, "ultraface-version-RFB-320.onnx")].find(existsSync);
  if (!detector) throw new Error("no UltraFace detector: run `npm run setup:models`");
  for (const f of images)
    if (!existsSync(path.join(shared, "test-images", f))) throw new Error(`the benchmark photos come from ../shared/models/test-images (${f} missing)`);
  const cache = path.join(tmpdir(), "fof-bench");
  mkdirSync(cache, { recursive: true });
  const classifier = path.join(cache, "resnet34-fairface-random.onnx");
  if (!existsSync(classifier)) {
    log("building a ResNet-34 with random weights (FairFace's input and output shapes)…");
    writeFileSync(classifier, buildResNet34());
  }
  const bundle = await build({
    entryPoints: [path.join(root, "scripts/bench-faces/page.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    external: ["onnxruntime-web"],
  });
  const js = bundle.outputFiles[0].text;

  const isolation = {
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "cross-origin-resource-policy": "same-origin",
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://bench");
    const send = (body: Buffer | string, type: string) => {
      res.writeHead(200, { "content-type": type, ...isolation });
      res.end(body);
    };
    if (url.pathname === "/") return send(`<!doctype html><meta charset="utf-8"><script type="module" src="/bench.js"></script>`, "text/html");
    if (url.pathname === "/bench.js") return send(js, "text/javascript");
    if (url.pathname === "/models/detector.onnx") return send(readFileSync(detector), "application/octet-stream");
    if (url.pathname === "/models/classifier.onnx") return send(readFileSync(classifier), "application/octet-stream");
    const ort = /^\/ort\/([\w.-]+)$/.exec(url.pathname);
    if (ort && existsSync(path.join(root, "public/ort", ort[1])))
      return send(readFileSync(path.join(root, "public/ort", ort[1])), ort[1].endsWith(".wasm") ? "application/wasm" : "text/javascript");
    const img = /^\/images\/([\w.-]+)$/.exec(url.pathname);
    if (img && images.includes(img[1]))
      return send(readFileSync(path.join(shared, "test-images", img[1])), img[1].endsWith(".png") ? "image/png" : "image/jpeg");
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A fresh browser per backend: one backend's GPU-process or worker state never slows the next.
  const launch = () =>
    chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu-sandbox",
        "--enable-unsafe-webgpu",
        "--enable-features=Vulkan",
        "--use-angle=swiftshader",
        "--use-vulkan=swiftshader",
        "--enable-unsafe-swiftshader",
      ],
    });
  let version = "";
  const configs = [
    { label: "WASM, 1 thread", ep: "wasm" as const, threads: 1, faces: FACES },
    { label: `WASM, ${cpus().length} threads`, ep: "wasm" as const, threads: cpus().length, faces: FACES },
    { label: "WebGPU (SwiftShader)", ep: "webgpu" as const, threads: 1, faces: WEBGPU_FACES },
  ].filter((c) => !ONLY || c.ep === ONLY);
  const rows: string[] = [];
  // The server's runtime (fof label): onnxruntime-node in this process, same models and photos.
  const nodeFps: number[] = [];
  if (!ONLY || ONLY === "node")
    for (const threads of [1, cpus().length]) {
      const r = await nodeBench({ detector, classifier, photos: nodeBenchPhotos(shared, images), faces: FACES, threads });
      nodeFps.push(r.facesPerSecond);
      log(`${r.label}: ${r.facesPerSecond.toFixed(2)} faces/s`);
      rows.push(
        `| ${r.label} | ${r.faces} | ${r.seconds.toFixed(1)} s | **${r.facesPerSecond.toFixed(2)}** | ${r.detectMsPerImage.toFixed(0)} ms | ${r.classifyMsPerFace.toFixed(0)} ms | ${((r.facesPerSecond * MACS_PER_FACE) / 1e9).toFixed(1)} | ${r.firstFaceSeconds.toFixed(1)} s | n/a |`,
      );
    }
  try {
    for (const c of configs) {
      const browser = await launch();
      version = browser.version();
      const page = await browser.newPage();
      page.setDefaultTimeout(LIMIT_S * 1000);
      let lastPhase = "loading";
      page.on("console", (m) => {
        const t = m.text();
        if (t.startsWith("[phase] ")) {
          lastPhase = t.slice(8);
          log(`${c.label}: ${lastPhase}`);
        } else if (m.type() === "error" || m.type() === "warning") log(`${c.label} console ${m.type()}: ${t.slice(0, 300)}`);
      });
      page.on("crash", () => log(`${c.label}: the page crashed`));
      await page.goto(base);
      await page.waitForFunction(() => "runBench" in globalThis);
      log(`${c.label}: ${c.faces} faces…`);
      try {
        const run = page.evaluate(
          (cfg) => (globalThis as unknown as { runBench: (c: unknown) => Promise<Record<string, number | string | boolean>> }).runBench(cfg),
          { ...c, images: images.map((f) => `/images/${f}`) },
        );
        let timer: NodeJS.Timeout | undefined;
        const limit = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`not finished after ${LIMIT_S} s (last phase: ${lastPhase})`)), LIMIT_S * 1000);
        });
        const r = await Promise.race([run, limit]).finally(() => clearTimeout(timer));
        const fps = r.facesPerSecond as number;
        log(`${c.label}: ${fps.toFixed(2)} faces/s`);
        rows.push(
          `| ${c.label}${r.adapter ? ` (${r.adapter})` : ""} | ${r.faces} | ${(r.seconds as number).toFixed(1)} s | **${fps.toFixed(2)}** | ${(r.detectMsPerImage as number).toFixed(0)} ms | ${(r.classifyMsPerFace as number).toFixed(0)} ms | ${((fps * MACS_PER_FACE) / 1e9).toFixed(1)} | ${((r.phases as unknown as Record<string, number>)["warm-up classification 1"] / 1000).toFixed(1)} s | ${r.isolated ? "yes" : "no"} |`,
        );
      } catch (e) {
        const msg = (e as Error).message.split("\n")[0];
        log(`${c.label}: ${msg}`);
        rows.push(`| ${c.label} | – | – | ${msg} | | | | | |`);
      }
      await browser.close().catch(() => undefined);
    }
  } finally {
    server.close();
  }

  const mhz = Number(/cpu MHz\s*:\s*([\d.]+)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0].speed);
  // WASM SIMD is 128 bits wide: 4 float32 multiply-adds per cycle per core at best.
  const peakMacs = cpus().length * mhz * 1e6 * 4;
  const section = [
    `## Face labelling (\`npm run bench:faces\`) — ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Machine: ${cpus().length} × ${cpus()[0].model.trim()} @ ${mhz.toFixed(0)} MHz, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB, no GPU; Chromium ${version} headless, onnxruntime-web ${JSON.parse(readFileSync(path.join(root, "node_modules/onnxruntime-web/package.json"), "utf8")).version}, onnxruntime-node ${JSON.parse(readFileSync(path.join(root, "node_modules/onnxruntime-node/package.json"), "utf8")).version} (CPU execution provider; \`fof label\`'s runtime).`,
    `Command: \`npm run bench:faces\` (BENCH_FACES=${FACES}, BENCH_WEBGPU_FACES=${WEBGPU_FACES}). Pipeline of the Label page (lib/faces): decode → UltraFace RFB-320 (320 × 240) → square crop → ResNet-34 at 224 × 224 with FairFace's shapes and random weights (${(statSync(classifier).size / 1e6).toFixed(0)} MB; speed only). Photos: astronaut + Grace Hopper (one face each), alternating; 2 warm-up images not counted.`,
    "",
    "| backend | faces | time | faces/s | detect / image | classify / face | achieved G MAC/s | first face (load, compile, run) | cross-origin isolated |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `CPU bound: ResNet-34 is ≈ 3.6 G multiply-adds per face (the usual "3.6 GFLOPs"); 128-bit WASM SIMD does at most 4 float32 multiply-adds per cycle per core → ${(peakMacs / 1e9).toFixed(1)} G MAC/s on ${cpus().length} cores → **≤ ${(peakMacs / MACS_PER_FACE).toFixed(1)} faces/s** for classification alone (${(peakMacs / MACS_PER_FACE / cpus().length).toFixed(1)} per core). SwiftShader's WebGPU adapter runs shaders on the same CPU cores, so it cannot beat that bound; a real GPU adapter is what makes WebGPU worth having. Native code (onnxruntime-node's CPU provider: AVX2/FMA, 256-bit, 8 multiply-adds per cycle per core and better kernels) is not bound by 128-bit WASM SIMD. CUDA (\`fof label --device cuda\`, FOF_LABEL_DEVICE) is untested here (no GPU): at 3.6 G MAC per face, a GPU sustaining even 5 T MAC/s in fp32 would classify over 1,000 faces/s, so detection, decoding and database writes become the limit.${nodeFps.length === 2 && nodeFps[0] >= nodeFps[1] ? ` Here one native thread is as fast as ${cpus().length} or faster: run one \`fof label\` per core (FOF_LABEL_THREADS=1, the default) rather than one with more threads.` : ""}`,
    "",
  ].join("\n");
  process.stdout.write(section + "\n");
  if (ONLY) return log("BENCH_ONLY set: docs/BENCHMARKS.md left as it is");
  writeBenchSection("## Face labelling (`npm run bench:faces`)", section);
}

main().catch((e) => {
  process.stderr.write(`bench:faces failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
