import { db } from "@/lib/db";
import { saveLabels } from "@/lib/engine";
import { jsonWrite } from "@/lib/engine/http";

/** Stores a batch's faces and probabilities; accepted only with the batch's lease token. */
export const POST = jsonWrite("faces.label", (body) => saveLabels(db(), body));
