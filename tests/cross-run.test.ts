// A suite's tables across runs: one table per view with a Run column, published rows once, cautions on the rows of
// runs that did not complete cleanly, drill-downs into each row's own run.
import { describe, expect, it } from "vitest";
import { mergeRunViews } from "../lib/suites/cross-run";
import type { SuiteView, TableView } from "../lib/suites/views";

const table = (value: number, model = "m1"): TableView => ({
  kind: "table",
  id: "t1",
  title: "Table 1",
  caption: "c",
  labelHeaders: ["Model"],
  columns: [{ id: "x", label: "X", better: "up", digits: 2, unit: "" }],
  groups: [
    {
      title: "Race",
      rows: [
        { labels: [model], cells: { x: { value, drill: { model } } }, source: "run" },
        { labels: ["SDXL (paper)"], cells: { x: { value: 0.5 } }, source: "published", flag: "copied cell" },
      ],
    },
  ],
});
const bars: SuiteView = { kind: "bars", id: "b", title: "B", caption: "", unit: "", series: [], data: [] };

describe("mergeRunViews", () => {
  it("puts every run's rows in one table, ours first, the paper's rows once", () => {
    const [t, ...rest] = mergeRunViews([
      { run: { id: "r1", name: "first", caution: null }, views: [table(0.1), bars] },
      { run: { id: "r2", name: "second", caution: "completed with 3 failed" }, views: [table(0.2, "m2")] },
    ]);
    expect(rest).toHaveLength(0); // charts stay on the run pages
    expect(t.labelHeaders).toEqual(["Run", "Model"]);
    const rows = t.groups[0].rows;
    expect(rows.map((r) => r.labels)).toEqual([
      ["first", "m1"],
      ["second", "m2"],
      ["published", "SDXL (paper)"],
    ]);
    expect(rows.map((r) => r.cells.x.value)).toEqual([0.1, 0.2, 0.5]);
    // A run with failures is never ranked silently; the paper's own caution stays.
    expect(rows[0].flag).toBeUndefined();
    expect(rows[1].flag).toBe("completed with 3 failed");
    expect(rows[2].flag).toBe("copied cell");
    // Each run row drills into its own run.
    expect(rows[0].drillBase).toBe("/runs/r1/suite");
    expect(rows[1].drillBase).toBe("/runs/r2/suite");
    expect(rows[2].drillBase).toBeUndefined();
  });

  it("keeps groups a later run adds and does not alter the runs' own views", () => {
    const first = table(0.1);
    const second = table(0.2);
    second.groups.push({ title: "Gender", rows: [{ labels: ["m1"], cells: { x: { value: 0.3 } }, source: "run" }] });
    const [t] = mergeRunViews([
      { run: { id: "r1", name: "a", caution: null }, views: [first] },
      { run: { id: "r2", name: "b", caution: null }, views: [second] },
    ]);
    expect(t.groups.map((g) => g.title)).toEqual(["Race", "Gender"]);
    expect(t.groups[1].rows[0].labels).toEqual(["b", "m1"]);
    expect(first.labelHeaders).toEqual(["Model"]);
    expect(first.groups[0].rows[0].labels).toEqual(["m1"]);
  });

  it("is empty without runs", () => {
    expect(mergeRunViews([])).toEqual([]);
  });
});
