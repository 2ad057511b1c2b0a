// `fof --server <url> --token <token> run|scores|export|import` (or FOF_SERVER / FOF_TOKEN): the same commands against
// a team's server through /api/v1, for CI machines that hold a token and nothing else (no database, no provider
// keys). `run --wait --fail-under "d<=0.25"` follows the run to its end and gates a release on its scores.
import { createWriteStream, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import path from "node:path";
import { checkThresholds, parseThresholds } from "../../lib/results/thresholds";
import type { RunOptions } from "./run";
import { reuseFromFlags } from "../../lib/results/answer-reuse";
import { DEFAULT_SUITE_ID, listSuites } from "../../lib/suites";
import { compareArgs, compareGate, gateSummary, printComparison, reportGate, type CompareCliOptions } from "./compare-cli";
import type { ComparisonResult } from "../../lib/features/results/comparisons";
import type { ExplanationResults } from "../../lib/features/explanations/results";
import { printExplanations, type ExplanationsCliOptions } from "./explanations-print";

import type { Remote } from "./remote-from";

export { remoteFrom, type Remote } from "./remote-from";

/** Network errors worth one more try (a connection cut mid-way, a proxy's timeout); a refusal or an unknown host is not. */
const TRANSIENT = new Set(["ECONNRESET", "ETIMEDOUT", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"]);

/** What a failed connection was, in the words of the system: "ECONNREFUSED 127.0.0.1:3999". */
function connectionProblem(e: unknown): { code: string; text: string } {
  const cause = (
    e as { cause?: { code?: string; address?: string; port?: number; message?: string; errors?: Array<{ code?: string; address?: string; port?: number }> } }
  )?.cause;
  const first = cause?.errors?.[0] ?? cause;
  const code = first?.code ?? cause?.code ?? "ERROR";
  const where = first?.address ? ` ${first.address}${first?.port ? `:${first.port}` : ""}` : "";
  return { code, text: `${code}${where}${!first?.address && cause?.message ? ` (${cause.message})` : ""}` };
}

async function request(r: Remote, method: string, route: string, body?: unknown, raw?: { bytes: Uint8Array }): Promise<Response> {
  let res: Response | null = null;
  for (let attempt = 0; !res; attempt++) {
    try {
      res = await fetch(`${r.server}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${r.token}`,
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...(raw ? { "content-type": "application/octet-stream" } : {}),
        },
        body: raw ? Buffer.from(raw.bytes) : body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      const p = connectionProblem(e);
      // A refused connection or an unknown host will not change in a second: say so at once. Reads may be tried
      // again after a cut connection (a write might have landed: never sent twice).
      if (method === "GET" && TRANSIENT.has(p.code) && attempt < 2) {
        await new Promise((ok) => setTimeout(ok, 500 * (attempt + 1)));
        continue;
      }
      throw new Error(`cannot reach ${r.server} (${p.text})${p.code === "ECONNREFUSED" ? ": is the server running, on that port?" : ""}`);
    }
    // The server is busy (503 + Retry-After, a database write lock): reads wait and try again, a few times.
    if (res.status === 503 && method === "GET" && attempt < 3) {
      const wait = Math.min(10, Number(res.headers.get("retry-after")) || 1);
      res = null;
      await new Promise((ok) => setTimeout(ok, wait * 1000));
    }
  }
  if (!res.ok) {
    const err = (await res.json().catch(() => null)) as { error?: string; problems?: Array<{ name: string; message: string }> } | null;
    const problems = err?.problems?.length ? "\n" + err.problems.map((p) => `  ${p.name}: ${p.message}`).join("\n") : "";
    throw new Error(`${method} ${route}: ${res.status} ${err?.error ?? res.statusText}${problems}`);
  }
  return res;
}
const getJson = async <T>(r: Remote, route: string) => (await request(r, "GET", route)).json() as Promise<T>;
const postJson = async <T>(r: Remote, route: string, body: unknown) => (await request(r, "POST", route, body)).json() as Promise<T>;

const FINAL = new Set(["completed", "failed", "cancelled", "budget_exhausted"]);
/** Exit statuses as `fof run` (docs/cli.md): 3 the run did not complete, 4 some items failed, 5 a --fail-under gate missed. */
const EXIT = { incomplete: 3, itemsFailed: 4, gateMissed: 5 } as const;

type RunView = { id: string; name: string; status: string; outcome: string; failed: number; plannedCount: number };
type Suites = { suites: Array<{ id: string; variants: Array<{ id: string; fixed: Record<string, unknown> }> }> };

/** The launch's settings over the preset: the flags `fof run` has, and --config. */
function configOverrides(opts: RunOptions): Record<string, unknown> {
  const list = (v: string | undefined) => v?.split(",").map((s) => s.trim());
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const out: Record<string, unknown> = {
    tests: list(opts.tests),
    contexts: list(opts.contexts),
    objectiveRepeats: num(opts.objectiveRepeats),
    subjectiveRepeats: num(opts.subjectiveRepeats),
    imagesPerPrompt: num(opts.imagesPerPrompt),
    ...(opts.config ? (JSON.parse(opts.config) as Record<string, unknown>) : {}),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

export async function remoteRun(r: Remote, opts: RunOptions & { wait?: boolean; failUnder?: string; pollMs?: number }) {
  const gates = opts.failUnder ? parseThresholds(opts.failUnder) : null;
  const reuse = reuseFromFlags(opts.reuseAnswersFrom, opts.reuseAnswersMaxAge);
  if (gates && !opts.wait) throw new Error("--fail-under needs --wait (the gate reads the finished run's scores)");
  const worse = compareGate(opts);
  if (worse && !opts.wait) throw new Error("--compare-to needs --wait (the comparison reads the finished run)");
  // `--content my-set@1.0.0` alone: the server runs it on the suite of content sets (as a local run finds it).
  const suite = opts.suite ?? (opts.content ? listSuites().find((s) => s.claimsContent?.(opts.content!))?.id : undefined) ?? DEFAULT_SUITE_ID;
  // A suite launched in several shapes (FACT-OR-FAIR: chat or text-to-image): the one of the models' modality.
  const [{ suites }, { models }] = await Promise.all([
    getJson<Suites>(r, "/api/v1/suites"),
    getJson<{ models: Array<{ slug: string; modality: string }> }>(r, `/api/v1/models?slug=${encodeURIComponent(opts.model[0] ?? "")}`),
  ]);
  const variants = suites.find((s) => s.id === suite)?.variants ?? [];
  const modality = models.find((m) => m.slug === opts.model[0])?.modality;
  const variant =
    variants.length > 1 ? variants.find((v) => v.fixed.modality === modality || (modality === "llm" && v.fixed.modality === undefined))?.id : undefined;
  const { run } = await postJson<{ run: RunView }>(r, "/api/v1/runs", {
    suite,
    ...(variant ? { variant } : {}),
    models: opts.model,
    preset: opts.preset,
    seed: Number(opts.seed),
    config: configOverrides(opts),
    ...(opts.budget ? { budgetUsd: Number(opts.budget) } : {}),
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.content ? { contentVersion: opts.content } : {}),
    ...(opts.until ? { until: opts.until } : {}),
    ...(reuse ? { reuseAnswers: reuse } : {}),
  });
  process.stderr.write(`launched ${run.id} (${run.plannedCount} queries) on ${r.server}\n`);
  if (!opts.wait) {
    process.stdout.write(JSON.stringify({ run }, null, opts.pretty ? 2 : undefined) + "\n");
    return;
  }
  let last = "";
  let view: RunView & { done?: number } = run;
  for (;;) {
    view = await getJson<RunView & { done: number }>(r, `/api/v1/runs/${run.id}`);
    const line = `${view.outcome}: ${view.done ?? 0} / ${view.plannedCount}`;
    if (line !== last) process.stderr.write(line + "\n");
    last = line;
    if (FINAL.has(view.status)) break;
    await new Promise((res) => setTimeout(res, opts.pollMs ?? 2000));
  }
  const scores = await getJson<{ results?: Array<{ model: string }>; views?: unknown }>(r, `/api/v1/runs/${run.id}/scores`);
  const adaptive = (view as { adaptive?: { summary: string } | null }).adaptive ?? null;
  if (adaptive) process.stderr.write(`${adaptive.summary}\n`);
  process.stdout.write(JSON.stringify(adaptive ? { ...scores, adaptive } : scores, null, opts.pretty ? 2 : undefined) + "\n");
  if (view.status !== "completed") process.exitCode = EXIT.incomplete;
  else if (view.failed > 0) process.exitCode = EXIT.itemsFailed;
  if (gates) {
    if (!scores.results) throw new Error(`--fail-under reads FACT-OR-FAIR's scores; ${suite} reports result tables (read them from the JSON)`);
    const results = checkThresholds(scores.results, gates);
    for (const g of results)
      process.stderr.write(`${g.ok ? "pass" : "FAIL"}  ${g.model}  ${g.gate}  (worst ${g.worst === null ? "none" : g.worst.toFixed(4)})\n`);
    if (results.some((g) => !g.ok)) process.exitCode = EXIT.gateMissed;
  }
  if (worse) {
    let failed = false;
    for (const model of opts.model) {
      const q = new URLSearchParams({ a: opts.compareTo!, b: `${run.id}:${model}` });
      const result = await getJson<ComparisonResult>(r, `/api/v1/compare?${q}`).catch(async () =>
        // The reference may hold the same model under its slug: name it (a multi-model reference needs it).
        getJson<ComparisonResult>(r, `/api/v1/compare?${new URLSearchParams({ a: `${opts.compareTo}:${model}`, b: `${run.id}:${model}` })}`),
      );
      if (reportGate(model, result, worse)) failed = true;
    }
    process.stderr.write(gateSummary(worse, failed));
    if (failed) process.exitCode = EXIT.gateMissed;
  }
}

/** `fof --server … pause|resume|cancel <run>`: POST /api/v1/runs/{id}/{action}, as the token's account. */
export async function remoteSteer(r: Remote, action: "pause" | "resume" | "cancel", runId: string, opts: { pretty?: boolean }) {
  const { run } = await postJson<{ run: { id: string; status: string; budgetUsd: number | null } }>(
    r,
    `/api/v1/runs/${encodeURIComponent(runId)}/${action}`,
    {},
  );
  (await import("./steer")).printSteered(run, opts);
}

/** `fof --server … compare A B`: the server's /api/v1/compare. */
export async function remoteCompare(r: Remote, a: string, b: string, opts: CompareCliOptions) {
  const args = compareArgs(a, b, opts);
  const side = (s: { runId: string; model?: string }) => (s.model ? `${s.runId}:${s.model}` : s.runId);
  const q = new URLSearchParams({ a: side(args.a), b: side(args.b), target: args.target, resamples: String(args.resamples) });
  printComparison(await getJson<ComparisonResult>(r, `/api/v1/compare?${q}`), opts);
}

export async function remoteScores(r: Remote, runId: string, opts: { raceMapping?: string; labels?: string; profile?: string; pretty?: boolean }) {
  const q = new URLSearchParams(
    Object.entries({ raceMapping: opts.raceMapping, labels: opts.labels, profile: opts.profile }).filter((e): e is [string, string] => !!e[1]),
  );
  const body = await getJson<unknown>(r, `/api/v1/runs/${encodeURIComponent(runId)}/scores?${q}`);
  process.stdout.write(JSON.stringify(body, null, opts.pretty ? 2 : undefined) + "\n");
}

export async function remoteExport(r: Remote, runId: string, opts: { raceMapping?: string; labels?: string }) {
  const q = new URLSearchParams({ format: "jsonl", raceMapping: opts.raceMapping ?? "paper", labels: opts.labels ?? "model" });
  const res = await request(r, "GET", `/api/v1/runs/${encodeURIComponent(runId)}/export?${q}`);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) process.stdout.write(chunk);
}

/** `fof --server … explanations RUN [--judge MODEL]`: start a judge pass (and wait for it), then the results. */
export async function remoteExplanations(r: Remote, runId: string, opts: ExplanationsCliOptions) {
  const base = `/api/v1/runs/${encodeURIComponent(runId)}/explanations`;
  if (opts.judge) {
    const pass = await postJson<{ id: string; total: number }>(r, `${base}/judge`, {
      judge: opts.judge,
      ...(opts.budget ? { budgetUsd: Number(opts.budget) } : {}),
    });
    process.stderr.write(`judging ${pass.total} explanations with ${opts.judge} …\n`);
    for (;;) {
      const { passes } = await getJson<{ passes: Array<{ id: string; status: string; judged: number; error: string | null }> }>(r, `${base}/judge`);
      const p = passes.find((x) => x.id === pass.id);
      if (!p || !["queued", "running"].includes(p.status)) {
        process.stderr.write(`judge pass ${p?.status ?? "gone"}${p?.error ? `: ${p.error}` : ""}\n`);
        break;
      }
      await new Promise((ok) => setTimeout(ok, 2000));
    }
  }
  printExplanations(await getJson<ExplanationResults>(r, base), opts);
}

/** `fof --server URL bundle RUN -o audit.zip`: the server's signed bundle, streamed to a temporary file renamed into place. */
export async function remoteBundle(r: Remote, runId: string, opts: { output?: string }) {
  const out = path.resolve(opts.output ?? `${runId}.evidence.zip`);
  const res = await request(r, "GET", `/api/v1/runs/${encodeURIComponent(runId)}/bundle`);
  const tmp = `${out}.partial-${process.pid}`;
  try {
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(tmp, { mode: 0o600 }));
    renameSync(tmp, out);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  process.stdout.write(`${out}: ${statSync(out).size.toLocaleString("en-US")} bytes from ${r.server}\n`);
}

/** Every file under the paths, with its name inside the selection (a folder's own name kept, as the Import page). */
function selection(paths: string[]): Array<{ file: string; name: string }> {
  const out: Array<{ file: string; name: string }> = [];
  const walk = (file: string, name: string) => {
    if (statSync(file).isDirectory()) for (const f of readdirSync(file).sort()) walk(path.join(file, f), `${name}/${f}`);
    else out.push({ file, name });
  };
  for (const p of paths) walk(path.resolve(p), path.basename(path.resolve(p)));
  return out;
}

export async function remoteImport(r: Remote, paths: string[], opts: { model: string; suite?: string; run?: string; name?: string; instrument?: string }) {
  const files = selection(paths);
  if (!files.length) throw new Error("nothing to import: no files under the paths given");
  const { uploadId } = await postJson<{ uploadId: string }>(r, "/api/v1/imports", {
    model: opts.model,
    ...(opts.suite ? { suite: opts.suite } : {}),
    runId: opts.run ?? null,
    runName: opts.name ?? null,
    ...(opts.instrument ? { instrument: opts.instrument } : {}),
  });
  let sent = 0;
  for (const f of files) {
    await request(r, "PUT", `/api/v1/imports/${uploadId}/files?name=${encodeURIComponent(f.name)}`, undefined, { bytes: readFileSync(f.file) });
    process.stderr.write(`\rsent ${++sent} / ${files.length}`);
  }
  process.stderr.write("\n");
  const done = await postJson<unknown>(r, `/api/v1/imports/${uploadId}/commit`, {});
  process.stdout.write(JSON.stringify(done) + "\n");
}
