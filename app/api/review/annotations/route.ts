import { db } from "@/lib/db";
import { saveAnnotations } from "@/lib/engine";
import { jsonWrite } from "@/lib/engine/http";

/** One annotator's labels for one or more faces (appended, all or nothing); answers with the faces as they are now. */
export const POST = jsonWrite("faces.review", (body) => saveAnnotations(db(), body as Parameters<typeof saveAnnotations>[1]));
