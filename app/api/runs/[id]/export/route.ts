import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { runRecordChunks, runScores } from "@/lib/engine";
import { toInterchangeLine } from "@/lib/interchange";

const schema = z.object({
  format: z.enum(["jsonl", "json"]).default("jsonl"),
  raceMapping: z.enum(["paper", "sum-asian"]).default("paper"),
});

const fileName = (name: string, ext: string) => `${name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "run"}.${ext}`;

/**
 * A run's data: `jsonl` = the JSONL v1 interchange (one line per answer, or per detected face for T2I; an image
 * without a face is one line with a null answer), streamed in chunks; `json` = its scores in the `fof score` shape.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const parsed = schema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return NextResponse.json({ error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") }, { status: 400 });
  const { id } = await params;
  const run = await db().run.findUnique({ where: { id }, select: { name: true } });
  if (!run) return NextResponse.json({ error: "run not found" }, { status: 404 });
  const { format, raceMapping } = parsed.data;
  if (format === "json") {
    const results = await runScores(db(), id, { raceMapping });
    return new NextResponse(JSON.stringify({ results }, null, 2) + "\n", {
      headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${fileName(run.name, "scores.json")}"` },
    });
  }
  const chunks = runRecordChunks(db(), id, { raceMapping });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) return controller.close();
      controller.enqueue(encoder.encode(next.value.map((r) => toInterchangeLine(r) + "\n").join("")));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="${fileName(run.name, "jsonl")}"`, "cache-control": "no-store" },
  });
}
