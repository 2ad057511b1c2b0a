import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { LABEL_SOURCES, recordLine, runRecordChunks, runScores } from "@/lib/engine";

const schema = z.object({
  format: z.enum(["jsonl", "json"]).default("jsonl"),
  raceMapping: z.enum(["paper", "sum-asian"]).default("paper"),
  labels: z.enum(LABEL_SOURCES).default("model"),
});

const fileName = (name: string, ext: string) => `${name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "run"}.${ext}`;

/**
 * A run's data: `jsonl` = the JSONL v1 interchange (one line per answer, or per face for T2I; an image without a
 * face is one line with a null answer), streamed in chunks; T2I lines also carry the face and both the model's and
 * the human majority's answer, with `labels` choosing which one is `answer`. `json` = its scores in the
 * `fof score` shape (T2I: under both the model's and the human-corrected labels).
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const parsed = schema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return NextResponse.json({ error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") }, { status: 400 });
  const { id } = await params;
  const run = await db().run.findUnique({ where: { id }, select: { name: true, modality: true } });
  if (!run) return NextResponse.json({ error: "run not found" }, { status: 404 });
  const { format, raceMapping, labels } = parsed.data;
  if (format === "json") {
    const body =
      run.modality === "t2i"
        ? { raceMapping, results: await runScores(db(), id, { raceMapping, labels: "model" }), reviewedResults: await runScores(db(), id, { raceMapping, labels: "reviewed" }) }
        : { results: await runScores(db(), id) };
    return new NextResponse(JSON.stringify(body, null, 2) + "\n", {
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
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="${fileName(run.name, run.modality === "t2i" ? `${labels}.jsonl` : "jsonl")}"`, "cache-control": "no-store" },
  });
}
