import { db } from "@/lib/db";
import { leaseImages } from "@/lib/features/labelling/leases";
import { jsonWrite } from "@/lib/server/http";

/** Leases a batch of images to label under a fresh token (same origin, JSON only). */
// The lease is bound to the signed-in account: only it can store or release the batch.
export const POST = jsonWrite("faces.label", (body, { viewer }) => leaseImages(db(), body as Parameters<typeof leaseImages>[1], undefined, viewer!.id), {
  maxBytes: 4096,
});
