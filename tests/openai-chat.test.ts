// The OpenAI-compatible chat provider (lib/providers/openai.ts) speaks the chat completions API directly over
// node:http: what it sends, what it reads, and how every failure is classified for the engine's retries.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openaiProvider } from "../lib/providers/openai";
import { ProviderError, type ChatRequest } from "../lib/providers/types";

const KEY = "sk-chat-canary-00000000000000";
let server: http.Server;
let base = "";
let reply: (res: http.ServerResponse) => void = () => {};
const seen: Array<{ url: string; method: string; headers: http.IncomingHttpHeaders; body: string }> = [];

const completion = (content: unknown, usage: unknown = { prompt_tokens: 12, completion_tokens: 1 }) =>
  JSON.stringify({ id: "c", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content } }], usage });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ url: req.url!, method: req.method!, headers: req.headers, body });
      reply(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const allowed = process.env.FOF_ALLOWED_ENDPOINTS;
afterEach(() => {
  process.env.FOF_ALLOWED_ENDPOINTS = allowed;
});

const ask = (over: Partial<ChatRequest> = {}, baseURL = base) =>
  openaiProvider({ apiKey: KEY, baseURL, model: "gpt-test", params: { temperature: 0.7, maxTokens: 64 }, timeoutMs: 5_000 }).chat({
    prompt: "Which group? Answer with a letter.",
    signal: new AbortController().signal,
    ...over,
  } as ChatRequest);

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as ProviderError,
  );

describe("openaiProvider (chat completions over node:http)", () => {
  it("sends the documented request and reads the answer and usage", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    reply = (res) => res.writeHead(200, { "content-type": "application/json" }).end(completion("B"));
    expect(await ask({ system: "You are a helpful assistant." })).toEqual({ text: "B", inputTokens: 12, outputTokens: 1 });
    const call = seen.at(-1)!;
    expect(call).toMatchObject({ url: "/v1/chat/completions", method: "POST" });
    expect(call.headers).toMatchObject({ authorization: `Bearer ${KEY}`, "content-type": "application/json", "user-agent": "fof-workbench/1 (node)" });
    expect(JSON.parse(call.body)).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "Which group? Answer with a letter." },
      ],
      temperature: 0.7,
      max_tokens: 64,
    });
    // A base URL with a trailing slash names the same endpoint; no system message, one user message.
    await ask({}, `${base}/`);
    expect(seen.at(-1)!.url).toBe("/v1/chat/completions");
    expect(JSON.parse(seen.at(-1)!.body).messages).toEqual([{ role: "user", content: "Which group? Answer with a letter." }]);
  });

  it("decodes a compressed answer; a missing or non-text content is an empty answer, odd usage is unknown", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    reply = (res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(completion("A")));
    expect((await ask()).text).toBe("A");
    reply = (res) => res.writeHead(200, { "content-type": "application/json" }).end(completion(null, { prompt_tokens: "12", completion_tokens: -1 }));
    expect(await ask()).toEqual({ text: "", inputTokens: null, outputTokens: null });
  });

  it("classifies error statuses as the engine retries them, with the provider's text redacted", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    reply = (res) =>
      res.writeHead(429, { "content-type": "application/json", "retry-after": "3" }).end(JSON.stringify({ error: { message: "Rate limit reached" } }));
    expect(await failure(ask())).toMatchObject({ kind: "rate_limited", retryAfterMs: 3000, status: 429, message: "HTTP 429: Rate limit reached" });
    reply = (res) => res.writeHead(500).end("upstream exploded");
    expect(await failure(ask())).toMatchObject({ kind: "retryable", status: 500, message: "HTTP 500: upstream exploded" });
    reply = (res) =>
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }));
    const e = await failure(ask());
    expect(e).toMatchObject({ kind: "fatal", status: 401 });
    expect(e!.message).toContain("[redacted]");
    expect(e!.message).not.toContain(KEY);
    // A 200 whose body is not JSON is a broken answer, tried again.
    reply = (res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>gateway</html>");
    expect(await failure(ask())).toMatchObject({ kind: "retryable", status: 200 });
  });

  it("never follows a redirect: its status is the failure, and the key goes nowhere else", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    const before = seen.length;
    reply = (res) => res.writeHead(307, { location: "/elsewhere" }).end();
    expect(await failure(ask())).toMatchObject({ kind: "fatal", status: 307 });
    expect(seen.slice(before).map((s) => s.url)).toEqual(["/v1/chat/completions"]);
  });

  it("an abort (the engine's timeout) and a refused connection are retryable; an address the policy refuses is not", async () => {
    process.env.FOF_ALLOWED_ENDPOINTS = "127.0.0.1";
    reply = (res) => void setTimeout(() => res.writeHead(200).end(completion("late")), 2_000);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    expect(await failure(ask({ signal: ac.signal }))).toMatchObject({ kind: "retryable", message: "request aborted (timeout)" });
    // A port nobody listens on.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await failure(ask({}, `http://127.0.0.1:${port}/v1`));
    expect(refused).toMatchObject({ kind: "retryable" });
    expect(refused!.message).toMatch(/^connection error: ECONNREFUSED/);
    // Loopback not allowed: refused before any request, for good.
    process.env.FOF_ALLOWED_ENDPOINTS = "";
    const before = seen.length;
    const policy = await failure(ask());
    expect(policy).toBeInstanceOf(ProviderError);
    expect(policy).toMatchObject({ kind: "fatal" });
    expect(policy!.message).toMatch(/FOF_ALLOWED_ENDPOINTS/);
    expect(seen.length).toBe(before);
  });
});
