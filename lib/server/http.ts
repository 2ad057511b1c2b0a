// The one boundary for route handlers: requests are checked (same origin for writes, JSON content type, body size)
// before anything is parsed, and every domain error becomes one HTTP answer — validation 400, not found 404, too
// large 413, wrong type 415, cross-origin 403 — with a message a person can act on. Anything unexpected is rethrown
// (Next logs it and answers 500 without details).
import { z } from "zod";
import { requirePermission, viewerFrom, type Viewer } from "../auth/guard";
import type { Permission } from "../auth/roles";

import { DomainError } from "../core/errors";
import { isContention } from "../db/retry";
import { logger, requestIdOf } from "../log";
import { instruments, routeTemplate } from "../core/metrics";
import { traced } from "../core/tracing";
import { redactUrls } from "../core/redact";

export { DomainError, notFound } from "../core/errors";

export function errorResponse(e: unknown): Response {
  if (e instanceof DomainError)
    return Response.json(
      { error: e.message, code: e.code, ...(e.problems ? { problems: e.problems } : {}) },
      // Refused for now (a limit, a busy server): the client is told when to ask again.
      { status: e.status, headers: e.status === 429 || e.status === 503 ? { "retry-after": "2" } : undefined },
    );
  if (e instanceof z.ZodError) return Response.json({ error: z.prettifyError(e) }, { status: 400 });
  if (e instanceof SyntaxError) return Response.json({ error: "invalid JSON" }, { status: 400 });
  // Another writer holds the database (SQLite's single write lock, a PostgreSQL lock timeout): nothing was written
  // (the statement or transaction failed whole); the caller may simply try again.
  if (isContention(e)) return Response.json({ error: "the database is busy: try again in a moment" }, { status: 503, headers: { "retry-after": "1" } });
  throw e;
}

/**
 * Refuses a cross-site write. Browsers send Sec-Fetch-Site (and Origin) with every POST: only "same-origin" (or
 * "none", a user-typed request) passes; without Sec-Fetch-Site the Origin must name this host. Clients that send
 * neither (curl, the CLI) cannot be driven by another site, so they pass.
 */
export function assertSameOrigin(req: Request): void {
  const site = req.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") throw new DomainError("forbidden", "cross-origin requests are refused");
  const origin = req.headers.get("origin");
  if (!site && origin) {
    const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (!host || originHost !== host) throw new DomainError("forbidden", "cross-origin requests are refused");
  }
}

/** Default cap on a JSON body: label results of 64 images with every probability fit well inside. */
const MAX_JSON_BYTES = 2 * 1024 * 1024;

/**
 * Reads a JSON body: application/json only (a text/plain post — the kind a foreign page can send without asking —
 * is refused), at most `maxBytes` (checked from Content-Length before reading and again while reading).
 */
export async function readJsonBody(req: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw new DomainError("unsupported_media_type", "send the body as application/json");
  const text = (await readBodyBytes(req, maxBytes, `the body is larger than ${Math.round(maxBytes / 1024)} KiB`)).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError("invalid", "invalid JSON");
  }
}

/**
 * Reads a body of at most `maxBytes` (checked from Content-Length before reading and again while reading), refusing a
 * larger one with `tooLarge` (413).
 */
export async function readBodyBytes(req: Request, maxBytes: number, tooLarge: string): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw new DomainError("too_large", tooLarge);
  if (!req.body) throw new DomainError("invalid", "a body is required");
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new DomainError("too_large", tooLarge);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Methods a label may carry (any other is "other": no series depends on what a client sends). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Runs a route with a request id: the response carries it (x-request-id), one log line and the request histogram
 * (GET /metrics) record the request (method, path — templated there —, status, time), and an unexpected error is logged with its stack and answered 500 naming only the id.
 */
async function logged(req: Request, run: () => Promise<Response>): Promise<Response> {
  const reqId = requestIdOf(req);
  const t0 = performance.now();
  // Secret path parts (a join link's token) never reach a log line or a span (lib/core/redact.ts).
  const path = redactUrls(new URL(req.url).pathname);
  let res: Response;
  const route = routeTemplate(path);
  const method = METHODS.has(req.method) ? req.method : "other";
  try {
    res = await traced(`${method} ${route}`, { "http.request.method": method, "http.route": route, "fof.request_id": reqId, ...runOf(path) }, async (span) => {
      const r = await run();
      span?.setAttribute("http.response.status_code", r.status);
      return r;
    });
  } catch (err) {
    logger.error({ reqId, method: req.method, path, err }, "unhandled error");
    res = Response.json({ error: `internal error (request ${reqId})` }, { status: 500 });
  }
  try {
    res.headers.set("x-request-id", reqId);
  } catch {
    // immutable headers (a redirect): the log line still has the id
  }
  const ms = performance.now() - t0;
  logger.info({ reqId, method: req.method, path, status: res.status, ms: Math.round(ms) }, "request");
  instruments().http.observe({ method, route, status: String(res.status) }, ms / 1000);
  return res;
}

/** The run a route is about (…/runs/<id>/…), as a span attribute. */
function runOf(path: string): { "fof.run_id"?: string } {
  const id = /\/runs\/([\w-]{1,64})(?:\/|$)/.exec(path)?.[1];
  return id && id !== "new" ? { "fof.run_id": id } : {};
}

/** What a route needs: a permission of the caller's role, any signed-in user, or explicitly nobody (`public`). */
export type Access = Permission | "signed-in" | "public";

async function check(req: Request, access: Access): Promise<Viewer | null> {
  if (access === "public") return null;
  if (access === "signed-in") {
    const viewer = await viewerFrom(req.headers);
    if (!viewer) throw new DomainError("unauthenticated", "sign in first");
    return viewer;
  }
  return requirePermission(req.headers, access);
}

/** A JSON write route: same origin, the caller's permission, JSON body within the cap, errors mapped. */
export function jsonWrite<P = Record<string, string>>(
  access: Access,
  handler: (body: unknown, ctx: { req: Request; params: P; viewer: Viewer | null }) => Promise<Response | object>,
  opts: { maxBytes?: number; status?: number } = {},
) {
  return (req: Request, ctx?: { params: Promise<P> }): Promise<Response> =>
    logged(req, async () => {
      try {
        assertSameOrigin(req);
        const viewer = await check(req, access);
        const body = await readJsonBody(req, opts.maxBytes);
        const params = ctx ? await ctx.params : ({} as P);
        const out = await handler(body, { req, params, viewer });
        return out instanceof Response ? out : Response.json(out, { status: opts.status ?? 200, headers: { "cache-control": "no-store" } });
      } catch (e) {
        return errorResponse(e);
      }
    });
}

/** A read route: the caller's permission, errors mapped, search parameters as a plain object (empty values dropped). */
export function jsonRead<P = Record<string, string>>(
  access: Access,
  handler: (query: Record<string, string>, ctx: { req: Request; params: P; viewer: Viewer | null }) => Promise<Response | object>,
) {
  return (req: Request, ctx?: { params: Promise<P> }): Promise<Response> =>
    logged(req, async () => {
      try {
        const viewer = await check(req, access);
        const query = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ""));
        const params = ctx ? await ctx.params : ({} as P);
        const out = await handler(query, { req, params, viewer });
        return out instanceof Response ? out : Response.json(out, { headers: { "cache-control": "no-store" } });
      } catch (e) {
        return errorResponse(e);
      }
    });
}

/** A write route whose body is not JSON (a streamed upload): same origin, permission, errors mapped. */
export function streamWrite<P = Record<string, string>>(
  access: Access,
  handler: (req: Request, ctx: { params: P; viewer: Viewer | null }) => Promise<Response | object>,
) {
  return (req: Request, ctx?: { params: Promise<P> }): Promise<Response> =>
    logged(req, async () => {
      try {
        assertSameOrigin(req);
        const viewer = await check(req, access);
        const params = ctx ? await ctx.params : ({} as P);
        const out = await handler(req, { params, viewer });
        return out instanceof Response ? out : Response.json(out, { headers: { "cache-control": "no-store" } });
      } catch (e) {
        return errorResponse(e);
      }
    });
}
