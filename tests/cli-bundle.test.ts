// Code bundled as the `fof` CLI is (scripts/cli-build-options.mjs: what `npm start`'s worker and deploy/systemd run)
// computes what its sources compute. A JSON table required by a bundled package once came back as a namespace object,
// and every Student's t quantile of the worker was NaN: the intervals it computed ahead had no ends.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { intervalQuantile } from "@/lib/metrics/jackknife";

describe("the CLI bundle", () => {
  it("computes Student's t quantiles as the sources do", async () => {
    const { build } = await import("esbuild");
    const { cliBuildOptions } = (await import(path.join(process.cwd(), "scripts/cli-build-options.mjs"))) as { cliBuildOptions: object };
    const dir = mkdtempSync(path.join(os.tmpdir(), "fof-cli-bundle-"));
    const entry = path.join(process.cwd(), "tests", "fixtures", "cli-bundle-entry.ts");
    await build({ ...cliBuildOptions, entryPoints: [entry], outdir: dir, logLevel: "error" });
    const out = execFileSync(process.execPath, [path.join(dir, "cli-bundle-entry.mjs")], { encoding: "utf8" });
    const [t16, t60, t40] = JSON.parse(out) as number[];
    expect(t16).toBeCloseTo(intervalQuantile(0.95, 16), 12);
    expect(t60).toBeCloseTo(intervalQuantile(0.95, 60), 12);
    expect(t40).toBeCloseTo(intervalQuantile(0.9975, 40), 12);
  });
});
