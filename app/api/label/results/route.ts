import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { saveLabels } from "@/lib/features/labelling/leases";
import { checkDeclaredModels } from "@/lib/faces/model-files";
import { DomainError, jsonWrite } from "@/lib/server/http";
import { actorOf, audit } from "@/lib/auth/audit";

type Ref = { model?: unknown; sha256?: unknown; source?: unknown } | undefined;
const sum = (r: Ref) => (typeof r?.sha256 === "string" ? r.sha256 : undefined);

/**
 * Stores a batch's faces and probabilities; accepted only with the batch's lease token. The files this server served
 * the page (detector, landmarker, and FairFace when the page says it took the server's) must be the ones declared.
 */
export const POST = jsonWrite("faces.label", async (body, { viewer }) => {
  const b = body as { classifier?: Ref; detector?: Ref; landmarker?: Ref } | null;
  const e = env();
  const mismatch = await checkDeclaredModels(
    [
      { kind: "detector", sha256: sum(b?.detector), served: true },
      { kind: "landmarker", sha256: sum(b?.landmarker), served: true },
      { kind: "fairface", sha256: sum(b?.classifier), served: b?.classifier?.source === "server" },
    ],
    { cwd: process.cwd(), dataDir: e.dataDir, fairfacePath: e.FAIRFACE_MODEL_PATH },
  );
  if (mismatch) throw new DomainError("conflict", mismatch);
  const r = await saveLabels(db(), body, viewer!.id);
  // Which classifier labelled them: a run labelled partly by a stand-in and partly by FairFace shows in the log.
  if (r.saved)
    await audit(db(), {
      ...actorOf(viewer),
      action: "faces.classified",
      details: { images: r.saved, faces: r.faces, classifier: b?.classifier?.model, sha256: sum(b?.classifier) },
    });
  return r;
});
