import { db } from "@/lib/db";
import { annotatorSchema, reviewImage } from "@/lib/engine";
import { errorResponse } from "@/lib/engine/http";

/** An image with all its faces, deleted ones included, for the whole-image view. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const who = new URL(req.url).searchParams.get("annotator");
    return Response.json(await reviewImage(db(), (await params).id, who ? annotatorSchema.parse(who) : undefined), { headers: { "cache-control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}
