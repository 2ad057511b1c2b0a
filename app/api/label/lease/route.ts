import { db } from "@/lib/db";
import { leaseImages } from "@/lib/engine";
import { jsonWrite } from "@/lib/engine/http";

/** Leases a batch of images to label under a fresh token (same origin, JSON only). */
export const POST = jsonWrite("faces.label", (body) => leaseImages(db(), body as Parameters<typeof leaseImages>[1]), { maxBytes: 4096 });
