import { NextResponse } from "next/server";
import { db } from "@/lib/db";
import { runSummary } from "@/lib/engine";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const q = new URL(req.url).searchParams;
  const summary = await runSummary(db(), (await params).id, { raceMapping: q.get("raceMapping") === "sum-asian" ? "sum-asian" : "paper", labels: q.get("labels") === "reviewed" ? "reviewed" : "model" });
  if (!summary) return NextResponse.json({ error: "run not found" }, { status: 404 });
  return NextResponse.json(summary, { headers: { "cache-control": "no-store" } });
}
