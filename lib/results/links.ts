// URLs of the drill-down pages, built in one place so the chart, tables and tests agree.
import type { Attribute, Context, Level, Test } from "../benchmark/labels";

export interface GroupRef {
  model: string;
  test: Test;
  context: Context | null;
  attribute: Attribute;
  /** T2I: which labels, and the race mapping */
  labels?: string;
  raceMapping?: string;
  /** T2I: the scoring profile d is found under (release by default) */
  profile?: string;
}

function groupParams(g: GroupRef): URLSearchParams {
  const q = new URLSearchParams({ model: g.model, test: g.test, attribute: g.attribute });
  if (g.context) q.set("context", g.context);
  if (g.labels && g.labels !== "model") q.set("labels", g.labels);
  if (g.raceMapping && g.raceMapping !== "paper") q.set("raceMapping", g.raceMapping);
  if (g.profile && g.profile !== "release") q.set("profile", g.profile);
  return q;
}

/** The list of answers (or faces) behind one bar segment: a statistic × level and, optionally, one answer. */
export function answersHref(runId: string, g: GroupRef, cell: { statisticId: string; level: Level; answer?: string }): string {
  const q = groupParams(g);
  q.set("statisticId", cell.statisticId);
  q.set("level", cell.level);
  if (cell.answer) q.set("answer", cell.answer);
  return `/runs/${runId}/answers?${q}`;
}

export function breakdownPageHref(runId: string, g: GroupRef, extra: Record<string, string> = {}): string {
  const q = groupParams(g);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `/runs/${runId}/breakdown?${q}`;
}
