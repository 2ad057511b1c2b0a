import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { saveLabels } from "@/lib/engine";

export async function POST(req: Request) {
  try {
    return NextResponse.json(await saveLabels(db(), await req.json()));
  } catch (e) {
    if (e instanceof z.ZodError || e instanceof SyntaxError) return NextResponse.json({ error: e instanceof z.ZodError ? z.prettifyError(e) : "invalid JSON" }, { status: 400 });
    throw e;
  }
}
