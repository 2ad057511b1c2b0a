// What a request is labelled by comes from the code: every route handler under app/ has its template in the list
// (a new route cannot be left out), a path is labelled by the template serving it, and any other path — however many
// distinct ones a client sends — by the one label "unmatched".
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { matchRoute, ROUTE_TEMPLATES, UNMATCHED_ROUTE } from "../lib/core/route-templates";

/** The app folder's route handlers as templates, read from the file system. */
function templatesOnDisk(dir = path.resolve(__dirname, "../app"), prefix: string[] = []): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isFile() && e.name === "route.ts") out.push("/" + prefix.join("/"));
    if (!e.isDirectory()) continue;
    const seg = /^\(.*\)$/.test(e.name) ? null : e.name.replace(/^\[\.\.\.(\w+)\]$/, ":$1*").replace(/^\[(\w+)\]$/, ":$1");
    out.push(...templatesOnDisk(path.join(dir, e.name), seg === null ? prefix : [...prefix, seg]));
  }
  return out;
}

describe("route templates", () => {
  it("name every route handler of the app, and nothing else", () => {
    expect([...ROUTE_TEMPLATES].sort()).toEqual(templatesOnDisk().sort());
  });

  it("label a path by the template serving it, a static segment before a dynamic one", () => {
    expect(matchRoute("/api/v1/runs")).toBe("/api/v1/runs");
    expect(matchRoute("/api/v1/runs/cmi2x1abcdefghijklmnopqrs")).toBe("/api/v1/runs/:id");
    expect(matchRoute("/api/v1/runs/anything-at-all/bundle")).toBe("/api/v1/runs/:id/bundle");
    expect(matchRoute("/api/v1/runs/x/scores?format=json")).toBe("/api/v1/runs/:id/scores");
    expect(matchRoute("/api/v1/content-sets/set@1.0.0/approve")).toBe("/api/v1/content-sets/:ref/approve");
    expect(matchRoute("/api/review/faces")).toBe("/api/review/faces");
    expect(matchRoute("/api/auth/callback/oidc")).toBe("/api/auth/:all*");
    expect(matchRoute("/api/auth/sign-in/email")).toBe("/api/auth/:all*");
    expect(matchRoute("/api/v1/openapi.json")).toBe("/api/v1/openapi.json");
    expect(matchRoute("/metrics")).toBe("/metrics");
  });

  it("label every other path, however many, as one: unmatched", () => {
    const labels = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const r = Math.random().toString(36).slice(2);
      labels.add(matchRoute(`/api/v1/runs/${r}/${r}`));
      labels.add(matchRoute(`/${r}`));
      labels.add(matchRoute(`/api/v1/${r}`));
      labels.add(matchRoute(`/api/v1/runs/${r}`));
    }
    expect([...labels].sort()).toEqual(["/api/v1/runs/:id", UNMATCHED_ROUTE].sort());
    expect(matchRoute("/" + "a/".repeat(5000))).toBe(UNMATCHED_ROUTE);
    expect(matchRoute("")).toBe(UNMATCHED_ROUTE);
  });
});
