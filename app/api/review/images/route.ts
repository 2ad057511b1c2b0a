import { db } from "@/lib/db";
import { facelessImages } from "@/lib/engine";
import { errorResponse } from "@/lib/engine/http";

/** Images without a face in the review scope, to draw missed faces on. */
export async function GET(req: Request) {
  try {
    const params = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
    return Response.json(await facelessImages(db(), params), { headers: { "cache-control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}
