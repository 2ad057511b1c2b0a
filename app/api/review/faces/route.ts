import { db } from "@/lib/db";
import { addFace, reviewQueue } from "@/lib/engine";
import { errorResponse } from "@/lib/engine/http";

/** A page of the review queue (filters and cursors as query parameters). */
export async function GET(req: Request) {
  try {
    const params = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
    return Response.json(await reviewQueue(db(), params), { headers: { "cache-control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}

/** A face the detector missed, drawn by a reviewer. */
export async function POST(req: Request) {
  try {
    return Response.json(await addFace(db(), await req.json()), { status: 201 });
  } catch (e) {
    return errorResponse(e);
  }
}
