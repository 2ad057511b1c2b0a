import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { runImages } from "@/lib/engine";

const schema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(24),
  labelStatus: z.enum(["unlabelled", "leased", "labelled", "no_face"]).optional(),
  raceMapping: z.enum(["paper", "sum-asian"]).default("paper"),
});

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const parsed = schema.safeParse(Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== "")));
  if (!parsed.success) return NextResponse.json({ error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") }, { status: 400 });
  return NextResponse.json(await runImages(db(), (await params).id, parsed.data), { headers: { "cache-control": "no-store" } });
}
