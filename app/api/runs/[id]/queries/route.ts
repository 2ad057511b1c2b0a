import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { runQueries } from "@/lib/engine";

const schema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
  status: z.enum(["pending", "leased", "answered", "refused", "failed"]).optional(),
  test: z.enum(["objective", "subjective"]).optional(),
  context: z.enum(["baseline", "representativeness", "attribution", "ingroup"]).optional(),
  statisticId: z.string().max(80).optional(),
  model: z.string().max(120).optional(),
});

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const url = new URL(req.url);
  const parsed = schema.safeParse(Object.fromEntries([...url.searchParams].filter(([, v]) => v !== "")));
  if (!parsed.success) return NextResponse.json({ error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") }, { status: 400 });
  const data = await runQueries(db(), (await params).id, parsed.data);
  return NextResponse.json(data, { headers: { "cache-control": "no-store" } });
}
