import { GET as exportRun } from "@/app/api/runs/[id]/export/route";
import { badRequest } from "@/lib/core/errors";
import { jsonRead } from "@/lib/server/http";

/** A run's scores as JSON: the export in its `json` format (one computation, one permission rule). */
export const GET = jsonRead<{ id: string }>("results.read", async (query, { req, params }) => {
  if ("format" in query) throw badRequest("scores are JSON: use /export for the other formats");
  const url = new URL(req.url);
  url.searchParams.set("format", "json");
  return exportRun(new Request(url, { headers: req.headers }), { params: Promise.resolve(params) });
});
