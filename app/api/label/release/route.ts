import { NextResponse } from "next/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { releaseLeases } from "@/lib/engine";

/** Called with navigator.sendBeacon when a Label tab stops or closes; the body is the tab id. */
export async function POST(req: Request) {
  try {
    return NextResponse.json({ released: await releaseLeases(db(), (await req.text()).trim()) });
  } catch (e) {
    if (e instanceof z.ZodError) return NextResponse.json({ error: z.prettifyError(e) }, { status: 400 });
    throw e;
  }
}
