// The outbound endpoint policy and the image download cap: a provider (or a model's base URL) cannot steer the
// server into private, loopback or link-local addresses (cloud metadata, the app's own /api/health) unless the
// operator allows them; a returned image URL is read up to the 25 MiB cap and no further; error bodies reach an
// outcome's reason only as a short, escaped excerpt.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isSpecialAddress, outboundPolicy, OutboundRefusedError } from "../lib/providers/outbound";
import { createHttpFetch, nodeHttpFetch } from "../lib/providers/http-fetch";
import { openaiImageProvider } from "../lib/providers/images";
import { ProviderError } from "../lib/providers/types";
import { MAX_ERROR_EXCERPT } from "../lib/providers/errors";

let server: http.Server;
let base = "";
let hits: string[] = [];
const tiny = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
let imageUrl = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url?.startsWith("/v1/images/generations")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ created: 1, data: [{ url: imageUrl }] }));
    } else if (req.url === "/huge") {
      // 1.5 GiB of zeros, sent lazily: a reader that does not stop at the cap would hold it all.
      res.writeHead(200, { "content-type": "image/png" });
      const chunk = Buffer.alloc(1 << 20);
      let sent = 0;
      const pump = () => {
        while (sent < 1536) {
          sent++;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (sent = 1536));
      pump();
    } else if (req.url === "/redirect-to-metadata") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
    } else if (req.url === "/tiny.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(tiny);
    } else if (req.url?.startsWith("/v1/chat")) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `<script>alert(1)</script>\u0000\u001b[31m${"x".repeat(10_000)}` } }));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
const allowed = process.env.FOF_ALLOWED_ENDPOINTS;
afterEach(() => {
  process.env.FOF_ALLOWED_ENDPOINTS = allowed;
  hits = [];
});

describe("outbound endpoint policy", () => {
  it("knows the special ranges", () => {
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::2",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254",
    ])
      expect(isSpecialAddress(a), a).toBe(true);
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(isSpecialAddress(a), a).toBe(false);
    const p = outboundPolicy(["127.0.0.1", "10.0.0.0/8", "vllm.internal", "https://llm.lan:8000"]);
    expect(p.allows("x", "127.0.0.1")).toBe(true);
    expect(p.allows("x", "10.9.9.9")).toBe(true);
    expect(p.allows("x", "169.254.169.254")).toBe(false);
    expect(p.allows("vllm.internal", "192.168.5.5")).toBe(true);
    // A URL allows its scheme, host and port only.
    expect(p.allows("llm.lan", "192.168.5.6", { protocol: "https:", port: "8000" })).toBe(true);
    expect(p.allows("llm.lan", "192.168.5.6", { protocol: "https:", port: "8001" })).toBe(false);
    expect(p.allows("llm.lan", "192.168.5.6", { protocol: "http:", port: "8000" })).toBe(false);
    expect(p.allows("llm.lan", "192.168.5.6")).toBe(false);
    expect(p.allows("example.org", "93.184.215.14")).toBe(true);
  });

  it("refuses loopback and link-local addresses unless allowed, by IP and after DNS resolution", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "";
    await expect(nodeHttpFetch(`${base}/tiny.png`)).rejects.toBeInstanceOf(OutboundRefusedError);
    // A name that resolves to loopback is caught at connect time.
    await expect(nodeHttpFetch(`http://localhost:${new URL(base).port}/tiny.png`)).rejects.toThrow(/refused to connect to localhost \(127\.0\.0\.1|::1\)/);
    await expect(nodeHttpFetch("http://169.254.169.254/latest/meta-data/")).rejects.toThrow(/FOF_ALLOWED_ENDPOINTS/);
    expect(hits).toEqual([]);
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    expect((await nodeHttpFetch(`${base}/tiny.png`)).status).toBe(200);
  });

  it("a returned image URL pointing at metadata, or redirecting there, fails the query for good without a request", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    const provider = openaiImageProvider({ apiKey: "sk-outbound-canary-0000000000", baseURL: `${base}/v1`, model: "dall-e-3", timeoutMs: 10_000 });
    const generate = () => provider.generate({ prompt: "p", width: 1024, height: 1024, signal: new AbortController().signal });
    imageUrl = "http://169.254.169.254/latest/meta-data/iam/";
    const e1 = await generate().catch((e) => e);
    expect(e1).toBeInstanceOf(ProviderError);
    expect(e1).toMatchObject({ kind: "fatal" });
    expect(e1.message).toMatch(/169\.254\.169\.254.*FOF_ALLOWED_ENDPOINTS/);
    imageUrl = `${base}/redirect-to-metadata`;
    const e2 = await generate().catch((e) => e);
    expect(e2).toMatchObject({ kind: "fatal" });
    expect(e2.message).toMatch(/169\.254\.169\.254/);
    imageUrl = `${base}/tiny.png`;
    expect((await generate()).bytes).toEqual(new Uint8Array(tiny));
  });

  it("reads a returned image up to the 25 MiB cap and no further (a 1.5 GiB body costs no memory)", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    const provider = openaiImageProvider({ apiKey: "sk-outbound-canary-0000000000", baseURL: `${base}/v1`, model: "dall-e-3", timeoutMs: 30_000 });
    imageUrl = `${base}/huge`;
    global.gc?.();
    const before = process.memoryUsage().rss;
    const e = await provider.generate({ prompt: "p", width: 1024, height: 1024, signal: new AbortController().signal }).catch((x) => x);
    expect(e).toMatchObject({ kind: "fatal" });
    expect(e.message).toMatch(/larger than 25 MiB/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    // The cap is the reader's: a smaller one stops sooner.
    await expect(createHttpFetch({ maxBytes: 1024 })(`${base}/huge`)).rejects.toThrow(/larger than 1024 bytes/);
  });

  it("keeps an error body to a short, escaped excerpt", async () => {
    const { openaiProvider } = await import("../lib/providers/openai");
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    const chat = openaiProvider({ apiKey: "none", baseURL: `${base}/v1`, model: "m", params: { temperature: 0, maxTokens: 10 } as never, timeoutMs: 10_000 });
    const e = await chat.chat({ prompt: "hi", signal: new AbortController().signal, query: { test: "objective", context: null } } as never).catch((x) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.message.length).toBeLessThan(MAX_ERROR_EXCERPT + 40);
    expect(e.message).not.toMatch(/[\u0000-\u001f]/);
    expect(e.message).toContain("\\u001b");
  });
});
