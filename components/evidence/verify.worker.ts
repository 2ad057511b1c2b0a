// The browser verifier's worker: the dropped bundle is unpacked and checked here, off the page's thread and on this
// machine only (nothing is uploaded) — through the one archive reader `fof verify` uses (lib/evidence/zip.ts), SHA-256
// and Ed25519 through WebCrypto, the same checks as `fof verify` (lib/evidence/bundle-bytes.ts), then, when they hold, the
// re-scoring: /verifier/rescore.js (scripts/build-verifier.mjs) runs the workbench's own scoring code on the bundle's
// rows in SQLite compiled to WebAssembly and every stated value is compared.
import type { BundleCheck } from "@/lib/evidence/check";
import { verifyBundleBytes } from "@/lib/evidence/bundle-bytes";
import type { ScoreCheck } from "@/lib/evidence/compare";
import { explanationsVerdict, planVerdict, readingsVerdict, scoresVerdict, stoppingVerdict, type StoppingCheck } from "@/lib/evidence/verdicts";
import { rulesProblem } from "@/lib/results/scoring-rules";

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
const sha256 = async (b: Uint8Array) => hex(await crypto.subtle.digest("SHA-256", b as BufferSource));
const der = (pem: string) => Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "")), (c) => c.charCodeAt(0));

type Rescorer = {
  rescore(
    entries: Record<string, Uint8Array>,
    opts: { wasmUrl: string; progress?: (step: string) => void },
  ): Promise<{
    plan: Parameters<typeof planVerdict>[0];
    readings: { read: number; problems: string[] };
    scores: ScoreCheck[];
    /** a reasoning run's explanation results re-computed (format v3); null otherwise */
    explanations?: ScoreCheck[] | null;
    stopping: StoppingCheck | null;
  }>;
};

/** The scores and stopping checks, as `fof verify` words them (lib/evidence/verdicts.ts). */
async function rescored(entries: Record<string, Uint8Array>, progress: (step: string) => void): Promise<{ checks: BundleCheck[]; scores: ScoreCheck[] }> {
  try {
    progress("loading the scoring code");
    // the prebuilt re-scorer is a static file of this server, not part of this worker's build
    const url = new URL("/verifier/rescore.js", self.location.origin).href;
    const { rescore } = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url)) as Rescorer;
    const r = await rescore(entries, { wasmUrl: new URL("/verifier/sql-wasm.wasm", self.location.origin).href, progress });
    const stated = JSON.parse(new TextDecoder().decode(entries["scores.json"])) as { seed?: number; resamples?: number; scoring?: unknown; quantile?: unknown };
    const run = JSON.parse(new TextDecoder().decode(entries["run.json"])) as { adaptiveJson?: string | null; rulesJson?: unknown };
    const looks = run.adaptiveJson ? ((JSON.parse(run.adaptiveJson) as { looks?: unknown[] }).looks?.length ?? 0) : 0;
    const checks = [planVerdict(r.plan)];
    if (!checks[0]!.ok) return { checks, scores: [] };
    checks.push(readingsVerdict(r.readings));
    if (!checks[1]!.ok) return { checks, scores: [] };
    // under the rules the run was launched with (signed in its design), as `fof verify` checks them
    const ruled = rulesProblem(run.rulesJson, stated);
    if (ruled) return { checks: [...checks, { check: "scores", ok: false, detail: ruled }], scores: [] };
    checks.push(scoresVerdict(r.scores, stated));
    if (r.explanations) checks.push(explanationsVerdict(r.explanations));
    if (r.stopping) checks.push(stoppingVerdict(r.stopping, looks));
    return { checks, scores: [...r.scores, ...(r.explanations ?? []), ...(r.stopping?.values ?? [])] };
  } catch (err) {
    return { scores: [], checks: [{ check: "scores", ok: false, detail: `could not be recomputed: ${(err as Error).message}` }] };
  }
}

self.onmessage = async (e: MessageEvent<{ bundle: ArrayBuffer; publicKeyPem?: string; design?: ArrayBuffer }>) => {
  const post = (m: unknown) => (self as unknown as Worker).postMessage(m);
  const progress = (step: string) => post({ progress: step });
  try {
    const r = await verifyBundleBytes(new Uint8Array(e.data.bundle), {
      publicKeyPem: e.data.publicKeyPem,
      heldDesign: e.data.design ? new Uint8Array(e.data.design) : undefined,
      crypto: {
        sha256,
        verify: async (message, sig, pem) => {
          const key = await crypto.subtle.importKey("spki", der(pem) as BufferSource, { name: "Ed25519" }, false, ["verify"]);
          return crypto.subtle.verify({ name: "Ed25519" }, key, sig as BufferSource, message as BufferSource);
        },
      },
      rescore: (files) => rescored(files, progress),
    });
    post(r);
  } catch (err) {
    post({ checks: [{ check: "archive", ok: false, detail: (err as Error).message }], run: null, trusted: false });
  }
};
