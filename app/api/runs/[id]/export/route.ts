import { NextResponse } from "next/server";
import { authorize } from "@/lib/auth/guard";
import { exportQuery } from "@/lib/server/api/schemas";
import { jsonRead, notFound } from "@/lib/server/http";
import { DomainError } from "@/lib/core/errors";
import { actorOf, audit } from "@/lib/auth/audit";
import { db } from "@/lib/db";
import { recordLine, runRecordChunks } from "@/lib/features/results/run-results";
import { runScoresOff } from "@/lib/server/api/run-reads";
import { runIntervals } from "@/lib/features/results/intervals";
import { scoresCsv } from "@/lib/results/csv";
import { attachment, exportFileName as fileName } from "@/lib/results/export";
import { pointIntervalKey } from "@/lib/results/tradeoff";
import type { BootstrapIntervals } from "@/lib/metrics";
import { labelProvenance as runLabelProvenance } from "@/lib/faces/run-provenance";
import { provenanceCaution } from "@/lib/faces/provenance";
import { genericSuiteOfRun, suiteResultsJson, viewsCsv } from "@/lib/suites/export";
import { type ScoringProfile } from "@/lib/metrics/profiles";
import { runHeader } from "@/lib/features/runs/lookups";
import { answerReuseView } from "@/lib/features/results/summary";

// The shape /api/v1's document describes (lib/server/api/schemas.ts).
const schema = exportQuery;

/**
 * A run's data: `jsonl` = the JSONL v1 interchange (one line per answer, or per face for T2I; an image without a
 * face is one line with a null answer), streamed in chunks; T2I lines also carry the face and both the model's and
 * the human majority's answer, with `labels` choosing which one is `answer`. `json` = its scores in the
 * `fof score` shape (T2I: under both the model's and the human-corrected labels). `csv` = its scores as CSV with
 * the bootstrap 95 % bounds (computed if not cached), under `labels`.
 */
// One rule for downloads (the same as /api/results/scores): scores — aggregates, CSV or JSON — are results, readable by
// anyone who may read results; the raw lines (JSONL: every answer or face, prompts included) need data.export.
export const GET = jsonRead<{ id: string }>("results.read", async (query, { params, viewer }) => {
  const { format, raceMapping, labels, profile, target } = schema.parse(query);
  if (format === "jsonl") authorize(viewer, "data.export");
  const { id } = params;
  const run = await runHeader(db(), id);
  if (!run) throw notFound("run");
  await audit(db(), { ...actorOf(viewer), action: "export", targetType: "run", targetId: id, details: { format, labels, profile } });
  // Scores aggregate every answer: on a read thread, cached, limited per account (lib/server/offload.ts).
  const account = viewer?.id ?? null;
  const generic = await genericSuiteOfRun(db(), id);
  if (generic) return suiteExport(id, run.name, generic, format, labels, profile);
  // What labelled a text-to-image run's faces travels with its scores (a stand-in's are flagged in the run's name).
  const labelProvenance = run.modality === "t2i" ? await runLabelProvenance(db(), [id]) : null;
  // Answers other runs obtained travel with the scores too: in the JSON, and beside the run's name in the CSV.
  const answerReuse = await answerReuseView(db(), id, run.reuseJson);
  const reusedCount = answerReuse?.reused.reduce((a, r) => a + r.answers, 0) ?? 0;
  const caution =
    [labelProvenance ? provenanceCaution(labelProvenance) : null, reusedCount ? `${reusedCount} answers reused from other runs` : null]
      .filter(Boolean)
      .join("; ") || null;
  if (format === "csv") {
    const ref = { id, name: caution ? `${run.name} [${caution}]` : run.name };
    const groups = ((await runScoresOff(id, { raceMapping, labels, profile }, account)) ?? []).map((g) => ({ ...g, run: ref }));
    const intervals = new Map<string, BootstrapIntervals>();
    for (const g of (await runIntervals(db(), id, { raceMapping, labels, profile, target }))?.groups ?? [])
      intervals.set(pointIntervalKey({ ...g, run: ref }), g.intervals);
    return attachment(scoresCsv(groups, intervals, profile, target), fileName(run.name, "scores.csv"), "text/csv; charset=utf-8");
  }
  if (format === "json") {
    const body =
      run.modality === "t2i"
        ? {
            raceMapping,
            profile,
            labelProvenance,
            caution,
            results: await runScoresOff(id, { raceMapping, labels: "model", profile }, account),
            reviewedResults: await runScoresOff(id, { raceMapping, labels: "reviewed", profile }, account),
          }
        : { profile, results: await runScoresOff(id, { profile }, account) };
    return new NextResponse(JSON.stringify(answerReuse ? { ...body, answerReuse } : body, null, 2) + "\n", {
      headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${fileName(run.name, "scores.json")}"` },
    });
  }
  const chunks = runRecordChunks(db(), id, { raceMapping, labels });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) return controller.close();
      controller.enqueue(encoder.encode(next.value.map((r) => recordLine(r, labels) + "\n").join("")));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName(run.name, run.modality === "t2i" ? `${labels}.jsonl` : "jsonl")}"`,
      "cache-control": "no-store",
    },
  });
});

/** A run of a suite with generic results: its views as JSON or a long CSV, its data as the suite's JSONL lines. */
async function suiteExport(
  id: string,
  name: string,
  s: NonNullable<Awaited<ReturnType<typeof genericSuiteOfRun>>>,
  format: "jsonl" | "json" | "csv",
  labels: "model" | "reviewed",
  profile: ScoringProfile,
) {
  if (format !== "jsonl") {
    const body = await suiteResultsJson(db(), id, s, { labels, profile });
    if (format === "csv") return attachment(viewsCsv(body.views), fileName(name, `${labels}.csv`), "text/csv; charset=utf-8");
    return new NextResponse(JSON.stringify(body, null, 2) + "\n", {
      headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${fileName(name, `${labels}.json`)}"` },
    });
  }
  if (!s.suite.exportLines) throw new DomainError("not_found", `${s.suite.name} runs have no JSONL export`);
  const pages = s.suite.exportLines({ prisma: db() }, { runId: id, labels });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pages.next();
      if (next.done) return controller.close();
      controller.enqueue(encoder.encode(next.value.map((l) => JSON.stringify(l) + "\n").join("")));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName(name, `${labels}.jsonl`)}"`,
      "cache-control": "no-store",
    },
  });
}
