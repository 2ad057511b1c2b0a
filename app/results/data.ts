import { db } from "@/lib/db";
import { runsScores } from "@/lib/engine";
import { DEFAULT_SUITE_ID } from "@/lib/suites";
import { DEFAULT_RUN_COUNT, SCORABLE_STATUSES, paramValue, runIdsParam } from "@/lib/results/selection";

export type SearchParams = Record<string, string | string[] | undefined>;

/** The runs a results page shows (from `?runs=`, else the latest scorable ones), every run for the picker, and scores. */
export async function loadSelection(sp: SearchParams) {
  const parsed = runIdsParam.safeParse(paramValue(sp.runs, true));
  const error = parsed.success ? null : parsed.error.issues.map((i) => i.message).join("; ");
  const requested = parsed.success ? parsed.data : [];
  const all = await db().run.findMany({
    // The cross-run comparison is FACT-OR-FAIR's (S_fact, S_E, S_fair …); other suites' results live on their run pages.
    where: { status: { in: [...SCORABLE_STATUSES] }, suiteId: DEFAULT_SUITE_ID },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: { id: true, name: true, modality: true, status: true, createdAt: true, models: { select: { modelConfig: { select: { slug: true } } } } },
  });
  const picked = requested.length ? all.filter((r) => requested.includes(r.id)) : all.slice(0, DEFAULT_RUN_COUNT);
  const missing = requested.filter((id) => !all.some((r) => r.id === id));
  const groups = await runsScores(db(), picked);
  return {
    all: all.map((r) => ({ id: r.id, name: r.name, modality: r.modality, status: r.status, createdAt: r.createdAt.toISOString(), models: r.models.map((m) => m.modelConfig.slug) })),
    selected: picked.map((r) => ({ id: r.id, name: r.name, modality: r.modality })),
    explicit: requested.length > 0,
    groups,
    error: error ?? (missing.length ? `unknown or unscorable run id(s): ${missing.join(", ")}` : null),
  };
}
export type Selection = Awaited<ReturnType<typeof loadSelection>>;
