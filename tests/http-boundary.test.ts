// The route boundary: cross-origin and non-JSON writes are refused before anything is parsed, bodies are capped,
// domain errors map to one status each — and every write route goes through it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { assertSameOrigin, DomainError, errorResponse, jsonWrite, readJsonBody } from "../lib/server/http";
import { ERROR_STATUS } from "../lib/core/errors";

const req = (headers: Record<string, string>, body = "{}") =>
  new Request("http://127.0.0.1:3000/api/x", { method: "POST", headers: { host: "127.0.0.1:3000", ...headers }, body });

describe("route boundary", () => {
  it("refuses cross-origin writes and accepts same-origin ones", async () => {
    expect(() => assertSameOrigin(req({ "sec-fetch-site": "cross-site", origin: "http://evil.example" }))).toThrow(/cross-origin/);
    expect(() => assertSameOrigin(req({ "sec-fetch-site": "same-site", origin: "http://sub.127.0.0.1:3000" }))).toThrow(/cross-origin/);
    expect(() => assertSameOrigin(req({ origin: "http://evil.example" }))).toThrow(/cross-origin/);
    expect(() => assertSameOrigin(req({ origin: "null" }))).toThrow(/cross-origin/);
    expect(() => assertSameOrigin(req({ "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:3000" }))).not.toThrow();
    expect(() => assertSameOrigin(req({ origin: "http://127.0.0.1:3000" }))).not.toThrow();
    expect(() => assertSameOrigin(req({}))).not.toThrow();
  });

  it("reads only application/json, within the size cap", async () => {
    await expect(readJsonBody(req({ "content-type": "text/plain" }))).rejects.toMatchObject({ status: 415 });
    await expect(readJsonBody(req({ "content-type": "application/x-www-form-urlencoded" }, "a=1"))).rejects.toMatchObject({ status: 415 });
    await expect(readJsonBody(req({ "content-type": "application/json" }, "{nope"))).rejects.toMatchObject({ status: 400 });
    await expect(readJsonBody(req({ "content-type": "application/json; charset=utf-8" }, '{"a":1}'))).resolves.toEqual({ a: 1 });
    // Declared too large: refused before reading; undeclared (streamed) too large: refused while reading.
    await expect(readJsonBody(req({ "content-type": "application/json", "content-length": "99999999" }, "{}"), 1024)).rejects.toMatchObject({ status: 413 });
    const big = new Request("http://127.0.0.1:3000/api/x", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(" ".repeat(1000)));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    await expect(readJsonBody(big, 4096)).rejects.toMatchObject({ status: 413 });
  });

  it("maps errors to statuses, and a cross-origin text/plain post never reaches the handler", async () => {
    let called = 0;
    const route = jsonWrite("public", async () => {
      called++;
      return { ok: true };
    });
    const refused = await route(req({ "content-type": "text/plain", "sec-fetch-site": "cross-site", origin: "http://evil.example" }, '{"owner":"x"}'));
    expect(refused.status).toBe(403);
    expect(called).toBe(0);
    expect((await route(req({ "content-type": "text/plain" }))).status).toBe(415);
    expect((await route(req({ "content-type": "application/json", "sec-fetch-site": "same-origin" }))).status).toBe(200);
    expect(called).toBe(1);
    expect(errorResponse(new DomainError("not_found", "run not found")).status).toBe(404);
    // The code decides the status, whatever the message says; it travels with the message (and any problems).
    const refusedImport = errorResponse(
      new DomainError("unprocessable", "nothing was stored: a run not found in it", [{ name: "a.png", message: "not a PNG" }]),
    );
    expect(refusedImport.status).toBe(422);
    expect(await refusedImport.json()).toEqual({
      error: "nothing was stored: a run not found in it",
      code: "unprocessable",
      problems: [{ name: "a.png", message: "not a PNG" }],
    });
    for (const [code, status] of Object.entries(ERROR_STATUS))
      expect(errorResponse(new DomainError(code as keyof typeof ERROR_STATUS, "x")).status).toBe(status);
    expect(errorResponse(new z.ZodError([])).status).toBe(400);
    expect(() => errorResponse(new Error("boom"))).toThrow("boom");
  });

  it("every method of every route goes through the boundary with an access decision", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = path.join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (f === "route.ts") files.push(p);
      }
    };
    walk(path.join(process.cwd(), "app")); // every route file, /metrics included
    expect(files.length).toBeGreaterThan(5);
    // better-auth's own endpoints are the one exception: the library checks origins and rate-limits itself.
    const exempt = [path.join("app", "api", "auth", "[...all]", "route.ts")];
    for (const file of files) {
      if (exempt.some((e) => file.endsWith(e))) continue;
      const text = readFileSync(file, "utf8");
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        // A versioned route may re-export an app route as it is: that route file is checked here too.
        const reexport = new RegExp(`export \\{[^}]*\\b${method}\\b[^}]*\\} from "([^"]+)"`).exec(text);
        if (reexport) {
          expect(reexport[1], `${file} ${method}`).toMatch(/^@\/app\/api\/.+\/route$/);
          continue;
        }
        if (!new RegExp(`export (async function|const|function) ${method}\\b`).test(text)) continue;
        expect(text, `${file} ${method}`).toMatch(
          new RegExp(`export const ${method} = (jsonRead|jsonWrite|streamWrite)(<[^>]+>)?\\(\\s*"(public|signed-in|[a-z]+\\.[a-z]+)"`),
        );
      }
    }
  });
});
