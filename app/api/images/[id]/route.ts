import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { findServableImage } from "@/lib/images";
import { jsonRead, notFound } from "@/lib/server/http";

/** A stored image, to anyone signed in (labellers, reviewers and result readers all look at them). */
export const GET = jsonRead<{ id: string }>("signed-in", async (_query, { params }) => {
  const image = await findServableImage(db(), env().dataDir, params.id);
  if (!image) throw notFound("image");
  return new Response(Readable.toWeb(createReadStream(image.file)) as ReadableStream, {
    headers: {
      "content-type": image.mimeType,
      "cache-control": "private, max-age=31536000, immutable",
      etag: `"${image.sha256}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'",
    },
  });
});
