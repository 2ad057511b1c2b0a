import { db } from "@/lib/db";
import { annotatorSchema, reviewImage } from "@/lib/engine";
import { jsonRead, notFound } from "@/lib/engine/http";

/** An image with all its faces, deleted ones included, for the whole-image view. */
export const GET = jsonRead<{ id: string }>("faces.review", async (query, { params }) => {
  const image = await reviewImage(db(), params.id, query.annotator ? annotatorSchema.parse(query.annotator) : undefined);
  if (!image) throw notFound("image");
  return image;
});
