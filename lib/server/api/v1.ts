// Handlers of /api/v1 that are not the app's own routes re-exported: listing and launching runs, steering, models,
// suites. Each is a thin call of a feature's service; the route files put each behind the one boundary
// (lib/server/http.ts jsonRead / jsonWrite) with its permission, where tests/http-boundary.test.ts can see it.
import { db } from "../../db";
import { outcomeCounts } from "../../features/runs/outcomes";
import { outcomeLabel } from "../../core/run-status";
import { launchRun } from "../../features/runs/launch";
import { runList } from "../../features/runs/lookups";
import { modelPage } from "../../features/runs/models";
import { steerRun } from "../../features/runs/steer";
import { listSuites as allSuites } from "../../suites";
import { launchVariantsOf } from "../../suites/launch-variants";
import type { Viewer } from "../../auth/guard";
import { modelListQuery, runListQuery, steerBody, type STEER_ACTIONS } from "./schemas";

const runView = <R extends { id: string; status: string }>(r: R, failed: number) => ({ ...r, outcome: outcomeLabel(r.status, failed), failed });

export async function listRuns(query: Record<string, string>) {
  const { runs, next } = await runList(db(), runListQuery.parse(query));
  const counts = await outcomeCounts(
    db(),
    runs.map((r) => r.id),
  );
  return { runs: runs.map((r) => runView(r, counts.get(r.id)?.failed ?? 0)), next };
}

export async function launch(body: unknown, { viewer }: { viewer: Viewer | null }) {
  const run = await launchRun(db(), viewer!, body as never);
  const {
    runs: [view],
  } = await runList(db(), { id: run.id, limit: 1 });
  return { run: runView(view, 0) };
}

export const steer =
  (action: (typeof STEER_ACTIONS)[number]) =>
  async (body: unknown, { params, viewer }: { params: { id: string }; viewer: Viewer | null }) => {
    const { budgetUsd } = steerBody.parse(body ?? {});
    const run = await steerRun(db(), viewer!, params.id, action, budgetUsd);
    return { run: { id: run.id, status: run.status, budgetUsd: run.budgetUsd } };
  };

export async function listModels(query: Record<string, string>) {
  const q = modelListQuery.parse(query);
  const view = (m: { slug: string; label: string; modality: string; provider: string; archived: boolean }) => ({
    slug: m.slug,
    label: m.label,
    modality: m.modality,
    provider: m.provider,
    archived: m.archived,
  });
  if (q.slug) {
    const one = await db().modelConfig.findUnique({ where: { slug: q.slug } });
    return { models: one ? [view(one)] : [], next: null };
  }
  const page = await modelPage(db(), { archived: q.archived === "true", after: q.after, pageSize: q.limit });
  return { models: page.rows.map(view), next: page.next };
}

export const listSuites = async () => ({
  suites: allSuites().map((s) => ({
    id: s.id,
    name: s.name,
    summary: s.summary,
    variants: launchVariantsOf(s).map((v) => ({
      id: v.id,
      label: v.label,
      defaultPreset: v.defaultPreset,
      fixed: v.fixed ?? {},
      presets: Object.fromEntries(Object.entries(v.presets).map(([k, p]) => [k, p.config])),
    })),
  })),
});
