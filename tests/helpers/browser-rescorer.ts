// The browser verifier's re-scorer exactly as /verify loads it (public/verifier/rescore.js, built by
// scripts/build-verifier.mjs), built into a folder of this test's own, run where /verify runs it: in Chromium, in a
// module Web Worker loaded from a loopback server of the test's own (the bundle unpacked by fflate in the worker) —
// the same artifact, the same sql.js database, on the same bundles `fof verify` checks, so a test can compare the two
// value by value. Run under Node only, the same file once agreed with `fof verify` while Chromium refused a genuine
// bundle: the engines' Math.log/exp/pow differed in the last bit on ~10 % of inputs and a bootstrap percentile turned
// that into another interval (lib/core/libm.ts); and a browser's default locale is its user's (lib/core/order.ts).
// nodeRescoreResult runs the same file under Node (./browser-rescorer-child.mjs, a process of its own: in the test's
// process its look evaluators would replace the engine's, as they share a registry on globalThis), for the
// differential test that the two engines agree to the last bit (tests/verifier-chromium.integration.test.ts).
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { chromium } from "@playwright/test";
import type { ScoreCheck } from "../../lib/evidence/compare";
import { chromiumPath } from "./chromium";

let built: string | null = null;

function build() {
  const out = mkdtempSync(path.join(os.tmpdir(), "fof-verifier-test-"));
  execFileSync(process.execPath, [path.resolve(__dirname, "../../scripts/build-verifier.mjs"), "--out", out], { stdio: "pipe" });
  return out;
}

type Rescored = {
  plan: { compared: number; planned: number; kept: string; problems: string[] };
  readings: { read: number; problems: string[] };
  scores: ScoreCheck[];
  explanations: ScoreCheck[] | null;
  stopping: { values: ScoreCheck[] } | null;
};

/** The folder holding this test run's build of the browser verifier (rescore.js, sql-wasm.wasm), built once. */
const verifierFolder = () => (built ??= build());

/** What the re-scorer returns for a bundle when Node runs it (the differential test's other engine). */
export async function nodeRescoreResult(bundle: string): Promise<Rescored> {
  const dir = verifierFolder();
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, "browser-rescorer-child.mjs"), dir, bundle], {
    maxBuffer: 256 * 1024 ** 2,
  });
  return JSON.parse(stdout) as Rescored;
}

const WORKER = `
import { unzipSync } from "/fflate.js";
self.onmessage = async () => {
  try {
    const entries = unzipSync(new Uint8Array(await (await fetch("/bundle.zip")).arrayBuffer()));
    const { rescore } = await import("/rescore.js");
    const r = await rescore(entries, { wasmUrl: new URL("/sql-wasm.wasm", self.location.origin).href });
    self.postMessage({ ok: JSON.stringify(r), locale: Intl.DateTimeFormat().resolvedOptions().locale });
  } catch (e) {
    self.postMessage({ error: String(e && e.stack || e) });
  }
};`;

function serve(bundle: string): Promise<Server> {
  const dir = verifierFolder();
  const files: Record<string, () => [string, Buffer]> = {
    "/": () => ["text/html", Buffer.from("<!doctype html><title>re-scorer</title>")],
    "/worker.js": () => ["text/javascript", Buffer.from(WORKER)],
    "/fflate.js": () => ["text/javascript", readFileSync(path.resolve(__dirname, "../../node_modules/fflate/esm/browser.js"))],
    "/rescore.js": () => ["text/javascript", readFileSync(path.join(dir, "rescore.js"))],
    "/sql-wasm.wasm": () => ["application/wasm", readFileSync(path.join(dir, "sql-wasm.wasm"))],
    "/bundle.zip": () => ["application/zip", readFileSync(bundle)],
  };
  const server = createServer((req, res) => {
    const f = files[new URL(req.url ?? "/", "http://x").pathname];
    if (!f) return void res.writeHead(404).end();
    const [type, body] = f();
    res.writeHead(200, { "content-type": type, "content-length": body.length }).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/**
 * What the browser's re-scorer returns for a bundle, whole (the plan and readings checks, the scores, the looks), run
 * in Chromium under `locale` (en-US by default; `locale` reports the one the worker ran under).
 */
export async function browserRescoreResult(bundle: string, { locale = "en-US" } = {}): Promise<Rescored & { locale: string }> {
  const server = await serve(bundle);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--no-first-run", "--disable-background-networking"] });
  try {
    const page = await (await browser.newContext({ locale })).newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const r = await page.evaluate(
      () =>
        new Promise<{ ok?: string; error?: string; locale?: string }>((resolve) => {
          const w = new Worker("/worker.js", { type: "module" });
          w.onmessage = (e) => resolve(e.data as { ok?: string; error?: string; locale?: string });
          w.onerror = (e) => resolve({ error: e.message });
          w.postMessage(null);
        }),
    );
    if (!r.ok) throw new Error(`the re-scorer failed in Chromium: ${r.error}`);
    return { ...(JSON.parse(r.ok) as Rescored), locale: r.locale! };
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Every stated value of a bundle (scores, then an adaptive run's looks) with what the browser's re-scorer recomputed. */
export async function browserRescore(bundle: string): Promise<ScoreCheck[]> {
  const r = await browserRescoreResult(bundle);
  return [...r.scores, ...(r.stopping?.values ?? [])];
}

/** The two verifiers' lists side by side: path, recomputed value and verdict. */
export const comparable = (checks: ScoreCheck[]) => checks.map((c) => [c.path, c.recomputed, c.equal] as const);
