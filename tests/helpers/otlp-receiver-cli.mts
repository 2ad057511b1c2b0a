// An OTLP/HTTP trace receiver as its own process, for the browser journeys (playwright.config.ts starts it): keeps
// every export body it is sent (JSON) and hands them back at GET /__bodies, so a journey can search every exported
// span for values that must never be there. tsx tests/helpers/otlp-receiver-cli.mts <port>
import http from "node:http";

const port = Number(process.argv[2]);
const bodies: string[] = [];
const MAX_BODIES = 20_000;

http
  .createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/__bodies") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(bodies));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method === "POST" && req.url === "/v1/traces" && bodies.length < MAX_BODIES) bodies.push(Buffer.concat(chunks).toString("utf8"));
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  })
  .listen(port, "127.0.0.1", () => console.log(`test OTLP receiver at http://127.0.0.1:${port}`));
