import { db } from "@/lib/db";
import { addFace, reviewQueue } from "@/lib/engine";
import { jsonRead, jsonWrite } from "@/lib/engine/http";
import { audit } from "@/lib/auth/audit";

/** A page of the review queue (filters and cursors as query parameters). */
export const GET = jsonRead("faces.review", (query) => reviewQueue(db(), query));

/** A face the detector missed, drawn by a reviewer. */
export const POST = jsonWrite(
  "faces.review",
  async (body, { viewer }) => {
    const face = await addFace(db(), body as Parameters<typeof addFace>[1]);
    await audit(db(), { userId: viewer?.id ?? null, action: "face.add", targetType: "face", targetId: String(face.id) });
    return face;
  },
  { status: 201 },
);
