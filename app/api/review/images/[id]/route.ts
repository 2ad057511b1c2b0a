import { db } from "@/lib/db";
import { reviewImage } from "@/lib/features/review/detections";
import { jsonRead, notFound } from "@/lib/server/http";

/** An image with all its faces, deleted ones included, for the whole-image view. */
export const GET = jsonRead<{ id: string }>("faces.review", async (_query, { params, viewer }) => {
  const image = await reviewImage(db(), params.id, viewer!.id);
  if (!image) throw notFound("image");
  return image;
});
