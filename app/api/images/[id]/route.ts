import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { NextResponse } from "next/server";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { findServableImage } from "@/lib/images";

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const image = await findServableImage(db(), env().dataDir, (await params).id);
  if (!image) return NextResponse.json({ error: "image not found" }, { status: 404 });
  return new Response(Readable.toWeb(createReadStream(image.file)) as ReadableStream, {
    headers: {
      "content-type": image.mimeType,
      "cache-control": "private, max-age=31536000, immutable",
      etag: `"${image.sha256}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'",
    },
  });
}
