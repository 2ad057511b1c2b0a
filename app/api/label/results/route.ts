import { db } from "@/lib/db";
import { saveLabels } from "@/lib/features/labelling/leases";
import { jsonWrite } from "@/lib/server/http";
import { audit } from "@/lib/auth/audit";

/** Stores a batch's faces and probabilities; accepted only with the batch's lease token. */
export const POST = jsonWrite("faces.label", async (body, { viewer }) => {
  const r = await saveLabels(db(), body, viewer!.id);
  // Which classifier labelled them: a run labelled partly by a stand-in and partly by FairFace shows in the log.
  const classifier = (body as { classifier?: { model?: unknown; sha256?: unknown } })?.classifier;
  if (r.saved)
    await audit(db(), {
      userId: viewer!.id,
      action: "faces.classified",
      details: { images: r.saved, faces: r.faces, classifier: classifier?.model, sha256: classifier?.sha256 },
    });
  return r;
});
