// FOF_METRICS_LISTEN: GET /metrics on an address of its own (e.g. 127.0.0.1:9464), so a scraper need not reach the
// public port. The same decision as the route: a bearer token whose role may read metrics, else 401 / 403.
import { createServer, type Server } from "node:http";
import { requirePermission } from "../auth/guard";
import { db } from "../db";
import { errorResponse } from "./http";
import { scrape } from "./metrics";

export function startMetricsListener(address: string, log: (m: string) => void = () => undefined): Server {
  const at = address.lastIndexOf(":");
  const host = address.slice(0, at).replace(/^\[|\]$/g, "");
  const port = Number(address.slice(at + 1));
  const server = createServer((req, res) => {
    void (async () => {
      let out: Response;
      try {
        if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") out = Response.json({ error: "only GET /metrics here" }, { status: 404 });
        else {
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
          await requirePermission(headers, "metrics.read");
          const { text, contentType } = await scrape(db);
          out = new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
        }
      } catch (e) {
        out = errorResponse(e);
      }
      res.writeHead(out.status, Object.fromEntries(out.headers));
      res.end(Buffer.from(await out.arrayBuffer()));
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  server.listen(port, host, () => log(`metrics on http://${address}/metrics`));
  return server;
}
