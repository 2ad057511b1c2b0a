// The production HTTP server (started by scripts/start.ts): Next.js behind a plain node:http server that owns the
// socket, so the client's address comes from the connection, never from what the client writes in a header.
// Before Next sees a request, forwarding headers a client could forge are replaced by the address resolved here
// (lib/auth/client-address.ts): X-Forwarded-For becomes that one address, and x-fof-client carries it signed with
// this process's secret (FOF_CLIENT_HEADER_SECRET, made by start.ts) for the setup page and the sign-in limits.
import http from "node:http";
import next from "next";
import { CONNECTIONS_CHECK_MS, limitRequestTimes, malformedTarget } from "../lib/net/request-target";
import { CLIENT_HEADER, CLIENT_SECRET_ENV, clientHeaderValue, parseTrustedProxies, resolveClientAddress } from "../lib/auth/client-address";

// Everything this process creates (database, images, uploads, secrets) is readable by its owner only.
process.umask(0o077);

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
const secret = process.env[CLIENT_SECRET_ENV];
if (!secret || secret.length < 16) {
  process.stderr.write(`${CLIENT_SECRET_ENV} is not set: start the server with \`npm start\` (scripts/start.ts)\n`);
  process.exit(1);
}
const trusted = parseTrustedProxies(process.env.FOF_TRUSTED_PROXIES);

async function main() {
  const app = next({ dev: false, dir: process.cwd(), hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer({ connectionsCheckingInterval: CONNECTIONS_CHECK_MS }, (req, res) => {
    const bad = malformedTarget(req.url);
    if (bad) {
      res.writeHead(400, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify({ error: bad }));
      return;
    }
    const h = req.headers;
    const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(",") : v);
    const client = resolveClientAddress(
      req.socket.remoteAddress ?? "",
      { xForwardedFor: joined(h["x-forwarded-for"]), forwarded: joined(h["forwarded"]), xRealIp: joined(h["x-real-ip"]) },
      trusted,
    );
    delete h[CLIENT_HEADER];
    delete h["forwarded"];
    delete h["x-real-ip"];
    h["x-forwarded-for"] = client.address;
    h[CLIENT_HEADER] = clientHeaderValue(secret!, client);
    void handle(req, res);
  });
  // Longer than a proxy's idle keep-alive, as next start does, so a reused connection is never cut mid-request.
  server.keepAliveTimeout = 65_000;
  limitRequestTimes(server);
  server.listen(port, hostname, () => process.stderr.write(`ready on http://${hostname}:${port}\n`));
  // Stop taking requests, let the in-process worker (instrumentation.ts) write its last results and give back its
  // leases (it stops on the same signal), then exit — within 20 s whatever happens.
  const stop = () => {
    const done = (globalThis as { __fofWorkerDone?: Promise<void> }).__fofWorkerDone ?? Promise.resolve();
    const deadline = new Promise((r) => setTimeout(r, 20_000).unref());
    server.close(() => void Promise.race([done, deadline]).finally(() => process.exit(0)));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
