import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { jsonRead } from "@/lib/server/http";
import { health } from "@/lib/server/health";

/**
 * Health for load balancers and deploy scripts (public: counts only, no names). 200 when ok or degraded (no live
 * worker: pages work, runs wait), 503 when the database is unreachable or its migrations are not current.
 */
export const GET = jsonRead("public", async () => {
  const h = await health(db(), env().databaseUrl);
  return Response.json(h, { status: h.status === "down" ? 503 : 200, headers: { "cache-control": "no-store" } });
});
