import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { jsonRead, notFound } from "@/lib/server/http";
import { actorOf, audit } from "@/lib/auth/audit";
import { db } from "@/lib/db";
import { runHeader } from "@/lib/features/runs/lookups";
import { writeBundleBounded } from "@/lib/features/evidence/bundle";
import { exportFileName } from "@/lib/results/export";
import { assertNotBlind } from "@/lib/features/explanations/access";

/**
 * A run's signed evidence bundle (lib/features/evidence/bundle.ts): every query, prompt and raw output, so the same
 * permission as the raw JSONL export. Written to a private temporary file, streamed, then removed; one at a time per
 * server process, in the order asked, at most one per account (a second of the same account meanwhile: 429).
 */
export const GET = jsonRead<{ id: string }>("data.export", async (_query, { params, viewer }) => {
  const run = await runHeader(db(), params.id);
  if (!run) throw notFound("run");
  // a bundle carries every reading of the run's explanations (and its gold): blind to whoever still owes theirs
  await assertNotBlind(db(), params.id, viewer?.id);
  await audit(db(), { ...actorOf(viewer), action: "export", targetType: "run", targetId: params.id, details: { format: "bundle" } });
  const dir = mkdtempSync(path.join(os.tmpdir(), "fof-bundle-"));
  const file = path.join(dir, "bundle.zip");
  try {
    await writeBundleBounded(db(), params.id, file, viewer?.id ?? null);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const stream = createReadStream(file);
  stream.on("close", () => rmSync(dir, { recursive: true, force: true }));
  return new Response(Readable.toWeb(stream) as ReadableStream, {
    headers: {
      "content-type": "application/zip",
      "content-length": String(statSync(file).size),
      "content-disposition": `attachment; filename="${exportFileName(run.name, "evidence.zip")}"`,
      "cache-control": "no-store",
    },
  });
});
