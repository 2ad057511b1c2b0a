// The checks `npm test` runs on the layout (scripts/test-all.mjs) really fail on what they forbid: each rule is fed
// a bad case — a cycle, a back arrow between layers, a lint error, an unformatted file — and must report it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ESLint } from "eslint";
import * as prettier from "prettier";
import { cruise } from "dependency-cruiser";

const require = createRequire(import.meta.url);
const { forbidden } = require("../.dependency-cruiser.cjs") as { forbidden: unknown[] };

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fof-arch-"));
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = tree(files);
  const cwd = process.cwd();
  process.chdir(dir); // rules match paths relative to the root, as in the project
  try {
    const r = await cruise(
      ["app", "components", "lib"].filter((d) => Object.keys(files).some((f) => f.startsWith(`${d}/`))),
      { ruleSet: { forbidden }, validate: true } as never,
    );
    const out = r.output as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
    return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  } finally {
    process.chdir(cwd);
  }
}

describe("dependency rules (.dependency-cruiser.cjs)", () => {
  it("pass a tree whose arrows point down", async () => {
    expect(
      await violations({
        "lib/env.ts": "export const x = 1;\n",
        "lib/features/runs/a.ts": 'import { x } from "../env";\nexport const a = x;\n',
        "app/page.ts": 'import { a } from "../lib/features/runs/a";\nexport const p = a;\n',
      }),
    ).toEqual([]);
  });
  it("fail on a cycle", async () => {
    const v = await violations({
      "lib/features/runs/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "lib/features/runs/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
    });
    expect(v.some((x) => x.startsWith("no-circular"))).toBe(true);
  });
  it("fail on a back arrow: core importing a feature, pure domain reaching the database, lib importing a page", async () => {
    const v = await violations({
      "lib/env.ts": 'import { run } from "./features/runs/run";\nexport const e = run;\n',
      "lib/features/runs/run.ts": "export const run = 1;\n",
      "lib/metrics/m.ts": 'import { c } from "../db/client";\nexport const m = c;\n',
      "lib/db/client.ts": "export const c = 1;\n",
      "lib/results/r.ts": 'import { p } from "../../app/page";\nexport const r = p;\n',
      "app/page.ts": "export const p = 1;\n",
    });
    expect(v).toEqual(
      expect.arrayContaining([
        "core-knows-no-feature: lib/env.ts → lib/features/runs/run.ts",
        "domain-is-pure: lib/metrics/m.ts → lib/db/client.ts",
        "lib-knows-no-ui: lib/results/r.ts → app/page.ts",
      ]),
    );
  });
  it("fail on a folder-level back arrow (no module cycle needed) and on a folder with no place in the layers", async () => {
    const v = await violations({
      // the database seeding through the run engine, a suite using a feature's service, review rules using results
      "lib/db/seed.ts": 'import { r } from "../features/runs/runs";\nexport const s = r;\n',
      "lib/features/runs/runs.ts": "export const r = 1;\n",
      "lib/suites/s.ts": 'import { q } from "../features/review/queue";\nexport const s = q;\n',
      "lib/features/review/queue.ts": "export const q = 1;\n",
      "lib/misc/m.ts": "export const m = 1;\n",
      "lib/features/results/r.ts": 'import { m } from "../../misc/m";\nexport const r = m;\n',
    });
    expect(v).toEqual(
      expect.arrayContaining([
        "layers: db: lib/db/seed.ts → lib/features/runs/runs.ts",
        "layers: suites: lib/suites/s.ts → lib/features/review/queue.ts",
        "every-lib-folder-has-a-layer: lib/features/results/r.ts → lib/misc/m.ts",
      ]),
    );
    // and a feature may use a feature before it
    expect(
      await violations({
        "lib/features/review/a.ts": 'import { r } from "../runs/r";\nexport const a = r;\n',
        "lib/features/runs/r.ts": "export const r = 1;\n",
      }),
    ).toEqual([]);
  });
});

describe("lint and format", () => {
  it("ESLint reports an unused variable and a hook called conditionally", async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const [unused] = await eslint.lintText("export function f() {\n  const x = 1;\n  return 2;\n}\n", { filePath: "lib/example.ts" });
    expect(unused.messages.map((m) => m.ruleId)).toContain("@typescript-eslint/no-unused-vars");
    const [hook] = await eslint.lintText(
      '"use client";\nimport { useState } from "react";\nexport function C({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n',
      { filePath: "components/example.tsx" },
    );
    expect(hook.messages.map((m) => m.ruleId)).toContain("react-hooks/rules-of-hooks");
  });
  it("Prettier refuses an unformatted file and accepts a formatted one", async () => {
    const options = { ...(await prettier.resolveConfig("lib/example.ts")), filepath: "lib/example.ts" };
    expect(await prettier.check("export const x   =  {a:1}\n", options)).toBe(false);
    expect(await prettier.check("export const x = { a: 1 };\n", options)).toBe(true);
  });
});

// Pages, route handlers and components call a feature's service functions (lib/features/…): the HTTP API and the CLI
// share them. A query written in a page is a second copy of a rule the service keeps.
const DIRECT_QUERY =
  /\b(?:db\(\)|prisma|tx)\s*\.\s*(?:\$(?:queryRaw|executeRaw|transaction)\w*|[a-z]\w*\s*\.\s*(?:find|count|create|update|upsert|delete|aggregate|groupBy)\w*)\s*[(`]/;
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

describe("pages reach the database only through services", () => {
  it("the check finds a query in a page and passes a service call", () => {
    expect(DIRECT_QUERY.test("const runs = await db().run.findMany({ take: 10 });")).toBe(true);
    expect(DIRECT_QUERY.test("await db()\n  .image.count()")).toBe(true);
    expect(DIRECT_QUERY.test("await prisma.$queryRaw`SELECT 1`")).toBe(true);
    expect(DIRECT_QUERY.test("const runs = await listRuns(db());")).toBe(false);
  });
  it("no file of app/ or components/ queries the database", () => {
    const offenders = ["app", "components"].flatMap(sources).filter((f) => DIRECT_QUERY.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});

// What a browser loads: a client component ("use client") that reaches a Node built-in through value imports drags a
// polyfill into the page (node:crypto became crypto-browserify and asn1.js, whose `eval` the pages'
// Content-Security-Policy refuses) along with the server code that imported it. Type-only imports are erased and do
// not count; server actions are called by reference, not bundled.
describe("client components stay client code", () => {
  it("no client component reaches a Node built-in through value imports", async () => {
    const r = await cruise(["app", "components"], { tsConfig: { fileName: "tsconfig.json" }, doNotFollow: { path: "node_modules" } } as never);
    const modules = (r.output as { modules: Array<{ source: string; dependencies: Array<{ resolved: string; dependencyTypes?: string[] }> }> }).modules;
    const deps = new Map(modules.map((m) => [m.source, m.dependencies.filter((d) => !d.dependencyTypes?.includes("type-only")).map((d) => d.resolved)]));
    const client = modules
      .map((m) => m.source)
      .filter((f) => /\.tsx?$/.test(f) && !f.startsWith("node_modules"))
      .filter((f) => /^\s*(\/\/[^\n]*\n\s*)*["']use client["']/.test(readFileSync(f, "utf8")));
    expect(client.length).toBeGreaterThan(30);
    const reaches: string[] = [];
    for (const start of client) {
      const from = new Map<string, string>();
      const queue = [start];
      const seen = new Set(queue);
      while (queue.length) {
        const at = queue.shift()!;
        if (/\/actions\.ts$/.test(at)) continue;
        for (const to of deps.get(at) ?? []) {
          if (seen.has(to)) continue;
          seen.add(to);
          from.set(to, at);
          queue.push(to);
        }
      }
      for (const m of seen)
        if (/^(node:)?(crypto|fs|path|os|child_process|worker_threads|net|http|vm|zlib)$/.test(m)) {
          const chain = [m];
          for (let c = m; from.has(c);) chain.unshift((c = from.get(c)!));
          reaches.push(chain.join(" → "));
        }
    }
    expect(reaches).toEqual([]);
  }, 120_000);
});
