// report.html's charts: the plane with ticks, the upper bound and the models named, for bundles that name their
// interval quantile (FACT-OR-FAIR's and a content set's); older bundles' pages byte for byte as they were written.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { evidenceReport } from "@/lib/evidence/report";
import { upperBound } from "@/lib/metrics/bound";
import { oldFof, oldOwn } from "./fixtures/report/inputs";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const modern = <T extends { stated: object }>(i: T) => ({ ...i, stated: { ...i.stated, quantile: "t" } });

describe("report.html's plane", () => {
  it("renders an older bundle's page byte for byte (hashes of the pages written before 2026-12-07's charts)", () => {
    // computed with lib/evidence/report.ts as of 1318658 (before the charts changed), on these very inputs
    expect(sha(evidenceReport(oldFof as never))).toBe("3e5d0a3eab1aac2c2516ad379b576db582fd6ab2ac5f93bce01539d539339303");
    expect(sha(evidenceReport(oldOwn as never))).toBe("c7c3ffd2d33804b68c1d36917c2ca573673f79fa83cc2d22321db328e701a00f");
    expect(evidenceReport(oldOwn as never)).not.toContain("<svg");
  });

  it("has axis ticks, each attribute's upper bound g_k and every model named, escaped", () => {
    const input = modern(oldFof);
    input.stated.scores.groups[1].model = '<img src=x onerror="alert(1)">';
    const html = evidenceReport(input as never);
    const svg = html.slice(html.indexOf("<svg"), html.indexOf("</svg>"));
    for (const t of ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]) expect(svg).toContain(`>${t}</text>`);
    expect(svg).toContain("<title>upper bound g_2</title>");
    expect(svg).toContain("<title>upper bound g_4</title>");
    expect(svg).toContain("g_2, gender");
    expect(svg).toContain("g_4, race");
    // the legend names the models in text, not only in hover titles
    expect(svg).toMatch(/<text [^>]*><title>a<\/title>a<\/text>/);
    expect(svg).toContain("&lt;img src=x");
    expect(html).not.toMatch(/<img|onerror="/);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("Student's t on the design's degrees of freedom");
  });

  it("draws the curve where g_k is: the point on the bound sits on its curve", () => {
    const g4 = upperBound(4);
    const onBound = modern({
      ...oldFof,
      stated: { ...oldFof.stated, scores: { groups: [{ ...oldFof.stated.scores.groups[0], sFact: 0.5, sE: g4(0.5) }], intervals: { groups: [] } } },
    });
    const svg = evidenceReport(onBound as never);
    // the marker's centre (one attribute: a circle) equals the curve's point at S_fact 0.5
    const dot = /<circle cx="([\d.]+)" cy="([\d.]+)" r="4.5" fill="#0072b2"/.exec(svg)!;
    const curve = /<path d="([^"]+)" fill="none" stroke="#64748b"[^>]*><title>upper bound g_4<\/title>/.exec(svg)![1];
    const at = curve.split(/[ML]/).filter(Boolean)[50].split(" ").map(Number);
    expect(Number(dot[1])).toBeCloseTo(at[0], 0);
    expect(Number(dot[2])).toBeCloseTo(at[1], 0);
  });

  it("gives a content set's report its plane per declared attribute, with that attribute's k", () => {
    const html = evidenceReport(modern(oldOwn) as never);
    expect(html).toContain("<h2>age (k = 3): S_fact and S_E per group</h2><svg");
    expect(html).toContain("<title>upper bound g_3</title>");
    expect(html).toMatch(/<title>a · subjective · baseline: S_fact 0\.500, S_E 0\.700<\/title>/);
  });

  it("shows the estimate an interval is about where it is not the plug-in beside it", () => {
    const base = modern(oldFof);
    const g = base.stated.scores.groups[0];
    const input = {
      ...base,
      stated: {
        ...base.stated,
        scores: {
          ...base.stated.scores,
          intervals: { groups: [{ ...g, intervals: { sKLD: { estimate: 0.571, lo: 0.471, hi: 0.671 }, sE: { estimate: 0.8, lo: 0.7, hi: 0.9 } } }] },
        },
      },
    };
    const html = evidenceReport(input as never);
    expect(html).toContain('<td>0.900 <span class="iv">est. 0.571 [0.471, 0.671]</span></td>');
    expect(html).toContain('<td>0.800 <span class="iv">[0.700, 0.900]</span></td>');
  });
});
