import { db } from "@/lib/db";
import { saveAnnotations } from "@/lib/engine";
import { errorResponse } from "@/lib/engine/http";

/** One annotator's labels for one or more faces (appended, all or nothing); answers with the faces as they are now. */
export async function POST(req: Request) {
  try {
    return Response.json(await saveAnnotations(db(), await req.json()));
  } catch (e) {
    return errorResponse(e);
  }
}
