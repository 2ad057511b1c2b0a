// The fetch the openai SDK uses (node:http with keep-alive): what it sends, decodes, refuses and never follows.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { createHttpFetch, nodeHttpFetch } from "../lib/providers/http-fetch";

let server: http.Server;
let base = "";
const seen: Array<{ url: string; auth: string | undefined; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ url: req.url!, auth: req.headers.authorization, body });
      if (req.url === "/gzip") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        return res.end(gzipSync(JSON.stringify({ ok: true, echo: body })));
      }
      if (req.url === "/redirect") {
        res.writeHead(307, { location: "/elsewhere" });
        return res.end();
      }
      if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end("x".repeat(10_000));
      }
      if (req.url === "/slow") return void setTimeout(() => res.end("late"), 2_000);
      if (req.url === "/v1/chat/completions") {
        res.writeHead(200, { "content-type": "application/json", "x-request-id": "r1" });
        return res.end(
          JSON.stringify({
            id: "c",
            object: "chat.completion",
            created: 0,
            model: "m",
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "A" } }],
            usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
          }),
        );
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "nope" } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("nodeHttpFetch", () => {
  it("carries the openai SDK's calls: method, headers, JSON body, status and usage", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${base}/v1`, maxRetries: 0, fetch: nodeHttpFetch });
    const res = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(res.choices[0].message.content).toBe("A");
    expect(res.usage?.prompt_tokens).toBe(3);
    const call = seen.at(-1)!;
    expect(call).toMatchObject({ url: "/v1/chat/completions", auth: "Bearer sk-test" });
    expect(JSON.parse(call.body).messages[0].content).toBe("hi");
    // An error status is the SDK's APIError, as with the built-in fetch.
    await expect(client.models.retrieve("x")).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it("decodes gzip bodies", async () => {
    const res = await nodeHttpFetch(`${base}/gzip`, { method: "POST", body: "payload" });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.json()).toEqual({ ok: true, echo: "payload" });
  });

  it("never follows a redirect (a key is not re-sent elsewhere)", async () => {
    const before = seen.length;
    const res = await nodeHttpFetch(`${base}/redirect`, { headers: { authorization: "Bearer sk-test" } });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/elsewhere");
    expect(seen.slice(before).map((s) => s.url)).toEqual(["/redirect"]);
  });

  it("refuses a body over its limit, and aborts on the caller's signal", async () => {
    await expect(createHttpFetch({ maxBytes: 1024 })(`${base}/big`)).rejects.toThrow(/larger than 1024 bytes/);
    expect(await (await createHttpFetch({ maxBytes: 20_000 })(`${base}/big`)).text()).toHaveLength(10_000);
    const ac = new AbortController();
    const p = nodeHttpFetch(`${base}/slow`, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
  });
});
