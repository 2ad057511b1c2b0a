// Result views as data: a suite computes them, one generic page renders them (components/suites/suite-views.tsx).
// Client-safe: types only, no server imports. Every number states its scale; intervals travel with their cells.

export interface ViewCell {
  /** display value already in the column's scale, or null for "—" */
  value: number | null;
  /**
   * the estimate the interval is about, where it is not the value: a bias-corrected one (a cosine
   * score read from few images; the value stays the paper's computation, comparable with the published rows)
   */
  estimate?: number;
  /** bootstrap interval in the same scale */
  lo?: number;
  hi?: number;
  /** images/answers behind the value */
  n?: number;
  /** a drill-down: the filters that select what is behind the cell */
  drill?: Record<string, string>;
  note?: string;
}

export interface ViewColumn {
  id: string;
  label: string;
  /** "↑" higher is better, "↓" lower is better, "0" closer to zero is better, "½" closer to 0.5 (a balance point, e.g. a manifestation factor) */
  better: "up" | "down" | "zero" | "half";
  digits: number;
  unit: "%" | "";
}

export interface ViewRow {
  /** the row's labels, left to right (model, method …) */
  labels: string[];
  cells: Record<string, ViewCell>;
  source: "run" | "published";
  /** a caution shown with the row (an anomaly of the published table, a run with failed items) */
  flag?: string;
  /** where its cells drill to, when not the page's own run (rows of several runs in one table) */
  drillBase?: string;
}

export interface TableView {
  kind: "table";
  id: string;
  title: string;
  caption: string;
  /** what the label columns are called */
  labelHeaders: string[];
  columns: ViewColumn[];
  /** rows in groups (e.g. Race, Gender) */
  groups: Array<{ title: string; rows: ViewRow[] }>;
}

export interface BarsView {
  kind: "bars";
  id: string;
  title: string;
  caption: string;
  unit: "%" | "";
  series: Array<{ id: string; label: string }>;
  data: Array<{ label: string; values: Record<string, number | null>; n?: number }>;
}

export interface ListView {
  kind: "list";
  id: string;
  title: string;
  caption: string;
  columns: string[];
  rows: Array<{
    cells: string[];
    imageIds?: string[];
    /** each image's size, so its faces' boxes can be drawn over it (numbered as listed) */
    images?: Array<{ id: string; width: number; height: number }>;
    faces?: Array<{ imageId: string; box: [number, number, number, number]; label: string }>;
  }>;
  total: number;
  page: number;
  pageSize: number;
}

export type SuiteView = TableView | BarsView | ListView;

/** Whether a suite's score tables are in percent (their comparisons are then shown ×100 beside them, else 0–1). */
export function percentTables(views: readonly SuiteView[]): boolean {
  return views.some((v) => v.kind === "table" && v.columns.some((c) => c.unit === "%"));
}
