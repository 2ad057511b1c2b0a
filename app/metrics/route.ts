// GET /metrics: Prometheus metrics (lib/server/metrics.ts), to a bearer token (or session) whose role may read them —
// an admin's, or a "metrics" role made for a scraper; anonymous scrapes are refused (401). docs/operations.md.
import { db } from "@/lib/db";
import { jsonRead } from "@/lib/server/http";
import { scrape } from "@/lib/server/metrics";

export const GET = jsonRead("metrics.read", async () => {
  const { text, contentType } = await scrape(db);
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
