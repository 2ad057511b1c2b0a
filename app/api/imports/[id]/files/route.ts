import { env } from "@/lib/env";
import { badRequest } from "@/lib/core/errors";
import { streamWrite } from "@/lib/server/http";
import { receiveFile } from "@/lib/images";

/** One file of an import, streamed to disk (never held in memory); `name` is its path inside the selection. */
export const PUT = streamWrite<{ id: string }>("images.import", async (req, { params }) => {
  const name = new URL(req.url).searchParams.get("name");
  if (!name || name.length > 500) throw badRequest("name the file (?name=<path inside the selection>)");
  const declared = req.headers.get("content-length");
  return receiveFile(env().dataDir, params.id, name, req.body, declared === null ? null : Number(declared));
});
