// The checks `npm test` runs on the layout (scripts/test-all.mjs) really fail on what they forbid: each rule is fed
// a bad case — a cycle, a back arrow between layers, a lint error, an unformatted file — and must report it.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
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
        "lib/engine/a.ts": 'import { x } from "../env";\nexport const a = x;\n',
        "app/page.ts": 'import { a } from "../lib/engine/a";\nexport const p = a;\n',
      }),
    ).toEqual([]);
  });
  it("fail on a cycle", async () => {
    const v = await violations({
      "lib/engine/a.ts": 'import { b } from "./b";\nexport const a = () => b;\n',
      "lib/engine/b.ts": 'import { a } from "./a";\nexport const b = () => a;\n',
    });
    expect(v.some((x) => x.startsWith("no-circular"))).toBe(true);
  });
  it("fail on a back arrow: core importing a feature, pure domain reaching the database, lib importing a page", async () => {
    const v = await violations({
      "lib/env.ts": 'import { run } from "./engine/run";\nexport const e = run;\n',
      "lib/engine/run.ts": "export const run = 1;\n",
      "lib/metrics/m.ts": 'import { c } from "../db/client";\nexport const m = c;\n',
      "lib/db/client.ts": "export const c = 1;\n",
      "lib/results/r.ts": 'import { p } from "../../app/page";\nexport const r = p;\n',
      "app/page.ts": "export const p = 1;\n",
    });
    expect(v).toEqual(
      expect.arrayContaining([
        "core-knows-no-feature: lib/env.ts → lib/engine/run.ts",
        "domain-is-pure: lib/metrics/m.ts → lib/db/client.ts",
        "lib-knows-no-ui: lib/results/r.ts → app/page.ts",
      ]),
    );
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
