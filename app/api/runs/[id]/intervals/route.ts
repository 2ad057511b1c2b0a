import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { LABEL_SOURCES, runIntervals } from "@/lib/engine";

const schema = z.object({
  labels: z.enum(LABEL_SOURCES).default("model"),
  raceMapping: z.enum(["paper", "sum-asian"]).default("paper"),
  resamples: z.coerce.number().int().min(1000).max(10000).default(1000),
  level: z.coerce.number().min(0.5).max(0.999).default(0.95),
});

/**
 * Bootstrap intervals of every score group of a run (seeded with the run's seed). The first request for a given
 * state of the data computes them (yielding to other requests as it goes); later ones read the cache.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const parsed = schema.safeParse(Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== "")));
  if (!parsed.success) return NextResponse.json({ error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") }, { status: 400 });
  const result = await runIntervals(db(), (await params).id, parsed.data);
  if (!result) return NextResponse.json({ error: "run not found" }, { status: 404 });
  return NextResponse.json(result, { headers: { "cache-control": "no-store" } });
}
