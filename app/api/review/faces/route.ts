import { db } from "@/lib/db";
import { addFace } from "@/lib/features/review/detections";
import { reviewQueue } from "@/lib/features/review/queue";
import { jsonRead, jsonWrite } from "@/lib/server/http";
import { actorOf, audit } from "@/lib/auth/audit";

/** A page of the review queue (filters and cursors as query parameters). */
// "Mine" means the signed-in account's labels: ?annotator= no longer sets who is asking.
export const GET = jsonRead("faces.review", (query, { viewer }) => reviewQueue(db(), { ...query, annotator: viewer!.id }));

/** A face the detector missed, drawn by a reviewer. */
export const POST = jsonWrite(
  "faces.review",
  async (body, { viewer }) => {
    const face = await addFace(db(), { ...(body as object), annotator: viewer!.id } as Parameters<typeof addFace>[1]);
    await audit(db(), { ...actorOf(viewer), action: "face.add", targetType: "face", targetId: String(face.id) });
    return face;
  },
  { status: 201 },
);
