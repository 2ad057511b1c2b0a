import { db } from "@/lib/db";
import { addFace, reviewQueue } from "@/lib/engine";
import { jsonRead, jsonWrite } from "@/lib/engine/http";

/** A page of the review queue (filters and cursors as query parameters). */
export const GET = jsonRead("faces.review", (query) => reviewQueue(db(), query));

/** A face the detector missed, drawn by a reviewer. */
export const POST = jsonWrite("faces.review", (body) => addFace(db(), body as Parameters<typeof addFace>[1]), { status: 201 });
