import { NextResponse } from "next/server";
import { db } from "@/lib/db";
import { runSummary } from "@/lib/engine";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const mapping = new URL(req.url).searchParams.get("raceMapping");
  const summary = await runSummary(db(), (await params).id, { raceMapping: mapping === "sum-asian" ? "sum-asian" : "paper" });
  if (!summary) return NextResponse.json({ error: "run not found" }, { status: 404 });
  return NextResponse.json(summary, { headers: { "cache-control": "no-store" } });
}
