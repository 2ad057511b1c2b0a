import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { locateFaceModel } from "@/lib/faces/model-files";
import { jsonRead } from "@/lib/engine/http";

/** The face models for the Label and Review pages, read from disk at request time (never from a CDN). */
export const GET = jsonRead<{ kind: string }>("signed-in", async (_query, { params }) => {
  const { kind } = params;
  if (kind !== "detector" && kind !== "fairface") return NextResponse.json({ error: "unknown model" }, { status: 404 });
  const e = env();
  const found = locateFaceModel(kind, { cwd: process.cwd(), dataDir: e.dataDir, fairfacePath: e.FAIRFACE_MODEL_PATH });
  if (!found)
    return NextResponse.json(
      { error: kind === "fairface" ? "FairFace model not installed" : "face detector not installed: run `npm run setup:models`" },
      { status: 404 },
    );
  return new Response(Readable.toWeb(createReadStream(found.file)) as ReadableStream, {
    headers: { "content-type": "application/octet-stream", "content-length": String(found.bytes), "cache-control": "no-cache", "x-content-type-options": "nosniff" },
  });
});
