// Requests to providers over node:http(s) with keep-alive agents instead of the WHATWG fetch built into Node:
// httpRequest (what the chat provider calls directly, ./openai.ts) and, around it, the fetch the openai SDK is given
// for images. Measured against the provider emulator it halved the client's CPU per call (≈ 0.6 → 0.3 ms), which is
// most of what a worker spends per query on a fast endpoint (docs/BENCHMARKS.md, Engine). It is deliberately small:
//  - JSON requests only (a string or bytes body); anything else (forms, streams) goes to the built-in fetch;
//  - responses are read whole, up to MAX_RESPONSE_BYTES (a hostile endpoint cannot exhaust memory), gzip /
//    deflate / br decoded;
//  - redirects are not followed: the response goes back as it is, so a key is never re-sent to another address;
//  - the caller's AbortSignal aborts the request (the engine's timeouts);
//  - every connection obeys the outbound endpoint policy (lib/providers/outbound.ts): private, loopback and
//    link-local addresses are refused after DNS resolution unless the operator allows them.
import http from "node:http";
import https from "node:https";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";
import dns from "node:dns/promises";
import { checkUrl, currentPolicy, guardedLookup, OutboundRefusedError, targetOf } from "./outbound";

/** The largest response body read (an image as base64 JSON is a few MiB). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

// One pool per process: connections to an endpoint are reused across calls (the engine bounds concurrency).
const agents = { "http:": new http.Agent({ keepAlive: true, maxSockets: 512 }), "https:": new https.Agent({ keepAlive: true, maxSockets: 512 }) };

const NULL_BODY = new Set([101, 204, 205, 304]);

function decoded(res: http.IncomingMessage): Readable {
  const enc = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (enc === "gzip" || enc === "x-gzip") return res.pipe(createGunzip());
  if (enc === "deflate") return res.pipe(createInflate());
  if (enc === "br") return res.pipe(createBrotliDecompress());
  return res;
}

/** A fetch over node:http(s) reading at most `maxBytes` of a response body. */
export function createHttpFetch({ maxBytes = MAX_RESPONSE_BYTES }: { maxBytes?: number } = {}) {
  return (input: string | URL | Request, init: RequestInit = {}) => httpFetch(input, init, maxBytes);
}

export const nodeHttpFetch = createHttpFetch();

async function httpFetch(input: string | URL | Request, init: RequestInit, maxBytes: number): Promise<Response> {
  const body = init.body;
  const policy = currentPolicy();
  if (input instanceof Request || (body != null && typeof body !== "string" && !(body instanceof Uint8Array))) {
    // Forms and streams (rare: no provider here sends them) go through the built-in fetch, checked by name first.
    const url = new URL(input instanceof Request ? input.url : input instanceof URL ? input.href : input);
    checkUrl(url, policy);
    for (const a of await dns.lookup(url.hostname.replace(/^\[|\]$/g, ""), { all: true }))
      if (!policy.allows(url.hostname, a.address, targetOf(url)))
        throw new OutboundRefusedError(
          `refused to connect to ${url.host} (${a.address}): a private, loopback or link-local address — an operator may allow it with FOF_ALLOWED_ENDPOINTS`,
        );
    return fetch(input, init);
  }
  const url = new URL(input instanceof URL ? input.href : input);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => (headers[k] = v));
  const res = await httpRequest(url, { method: init.method ?? "GET", headers, body: body ?? undefined, signal: init.signal ?? undefined }, maxBytes, policy);
  const h = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (v === undefined || k === "content-encoding" || k === "content-length") continue;
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return new Response(NULL_BODY.has(res.status) ? null : res.body, { status: res.status, statusText: res.statusText, headers: h });
}

/** A response read whole: its status, headers as node:http gives them, and its body decoded. */
export interface RawResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer<ArrayBuffer>;
}

/**
 * One request over node:http(s) under the outbound policy, its body read whole (at most `maxBytes`, decoded). What
 * the fetch above wraps in a WHATWG Response, and what a provider's hot path may call directly (./openai.ts): the
 * Response, its Headers and their lazily loaded implementation cost more CPU per call than the request itself.
 */
export function httpRequest(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal },
  maxBytes = MAX_RESPONSE_BYTES,
  policy = currentPolicy(),
): Promise<RawResponse> {
  const agent = agents[url.protocol as "http:" | "https:"];
  if (!agent) return Promise.reject(new TypeError(`unsupported protocol ${url.protocol}`));
  try {
    checkUrl(url, policy);
  } catch (e) {
    return Promise.reject(e);
  }
  // Bodies come back decoded by us; ask for what we decode.
  const headers = { ...init.headers, "accept-encoding": "gzip, deflate, br" };
  return new Promise<RawResponse>((resolve, reject) => {
    const req = (url.protocol === "https:" ? https : http).request(url, {
      method: init.method,
      headers,
      agent,
      lookup: guardedLookup(policy, targetOf(url)),
      signal: init.signal,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const stream = decoded(res);
      stream.on("data", (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) {
          req.destroy();
          reject(new TypeError(`response larger than ${maxBytes} bytes: refused`));
          return;
        }
        chunks.push(c);
      });
      stream.on("error", reject);
      stream.on("end", () =>
        resolve({ status: res.statusCode ?? 502, statusText: res.statusMessage ?? "", headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.end(init.body);
  });
}
