import { db } from "@/lib/db";
import { saveLabels } from "@/lib/engine";
import { jsonWrite } from "@/lib/engine/http";
import { audit } from "@/lib/auth/audit";

/** Stores a batch's faces and probabilities; accepted only with the batch's lease token. */
export const POST = jsonWrite("faces.label", async (body, { viewer }) => {
  const r = await saveLabels(db(), body);
  if (r.saved) await audit(db(), { userId: viewer!.id, action: "faces.classified", details: { images: r.saved, faces: r.faces } });
  return r;
});
