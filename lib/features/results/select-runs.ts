import { db } from "@/lib/db";
import { z } from "zod";
import { outcomeCounts } from "@/lib/features/runs/outcomes";
import { outcomeLabel } from "@/lib/core/run-status";
import { runsScores } from "@/lib/features/results/explore";
import { DEFAULT_PROFILE, SCORING_PROFILES, type ScoringProfile } from "@/lib/metrics/profiles";
import { DEFAULT_SUITE_ID } from "@/lib/suites";
import { labelProvenance } from "@/lib/faces/run-provenance";
import { mixedClassifiersMessage, provenanceCaution, provenanceTag, type LabelProvenance } from "@/lib/faces/provenance";
import { adaptiveStateOf } from "@/lib/results/adaptive";
import { DEFAULT_RUN_COUNT, SCORABLE_STATUSES, paramValue, runIdsParam } from "@/lib/results/selection";

/** The newest runs the picker lists (older ones are reached by their link, `?runs=`). */
const PICKER_RUNS = 100;

/** A run with fewer answered items is left out of the default selection (too small to compare). */
export const MIN_DEFAULT_ITEMS = 20;

export type SearchParams = Record<string, string | string[] | undefined>;

/** The runs a results page shows (from `?runs=`, else the latest scorable ones), every run for the picker, and scores. */
export async function loadSelection(sp: SearchParams) {
  const { picked, ...rest } = await selectRuns(sp, DEFAULT_SUITE_ID);
  return { ...rest, groups: await runsScores(db(), picked, { profile: rest.profile }) };
}

/** The runs of one suite a results page shows (from `?runs=`, else the latest scorable ones) and every run for the picker. */
export async function selectRuns(sp: SearchParams, suiteId: string) {
  const parsed = runIdsParam.safeParse(paramValue(sp.runs, true));
  const error = parsed.success ? null : parsed.error.issues.map((i) => i.message).join("; ");
  const requested = parsed.success ? parsed.data : [];
  // How d is found for text-to-image groups (release: as the authors' scripts, beside the published rows).
  const profileParsed = z.enum(SCORING_PROFILES).safeParse(paramValue(sp.profile) ?? DEFAULT_PROFILE);
  const profile: ScoringProfile = profileParsed.success ? profileParsed.data : DEFAULT_PROFILE;
  const select = {
    id: true,
    name: true,
    modality: true,
    status: true,
    createdAt: true,
    adaptiveJson: true,
    models: { select: { modelConfig: { select: { slug: true } } } },
  } as const;
  // Runs of one suite at a time: suites' scores are not comparable with each other.
  const scorable = { status: { in: [...SCORABLE_STATUSES] }, suiteId };
  // The picker offers the newest PICKER_RUNS; runs named in the address are read whatever their age (a link to an
  // old comparison keeps working), and join the picker.
  const [newest, named] = await Promise.all([
    db().run.findMany({ where: scorable, orderBy: { createdAt: "desc" }, take: PICKER_RUNS, select }),
    requested.length ? db().run.findMany({ where: { ...scorable, id: { in: requested } }, select }) : Promise.resolve([]),
  ]);
  const all = [...newest, ...named.filter((r) => !newest.some((n) => n.id === r.id))];
  // Failed items per run: a run with failures is never ranked silently — its name carries the count wherever it shows.
  const outcomes = await outcomeCounts(
    db(),
    all.map((r) => r.id),
  );
  const failedOf = (id: string) => outcomes.get(id)?.failed ?? 0;
  // Same-named runs are told apart by when they were made.
  const nameCount = new Map<string, number>();
  for (const r of all) nameCount.set(r.name, (nameCount.get(r.name) ?? 0) + 1);
  // An adaptive run stopped early: its n is not the preset's (nor the paper's), so its name says so beside published rows.
  const adaptiveOf = (json: string | null) => {
    const o = adaptiveStateOf(json)?.outcome;
    return o ? ` (adaptive: ${o.items.toLocaleString("en-US")} of ${o.planned.toLocaleString("en-US")} items)` : json ? " (adaptive)" : "";
  };
  const shown = (r: { id: string; name: string; createdAt: Date; adaptiveJson: string | null }) =>
    `${r.name}${(nameCount.get(r.name) ?? 0) > 1 ? ` · ${r.createdAt.toISOString().slice(0, 16).replace("T", " ")}` : ""}${adaptiveOf(r.adaptiveJson)}${failedOf(r.id) ? ` (${failedOf(r.id).toLocaleString("en-US")} failed)` : ""}`;
  // The default selection: the latest runs with something to compare — not cancelled ones, nor runs too small to
  // score (fewer than MIN_DEFAULT_ITEMS answered); any run can still be picked by hand.
  const scored = (id: string) => (outcomes.get(id)?.answered ?? 0) + (outcomes.get(id)?.refused ?? 0);
  const byDefault = all.filter((r) => r.status !== "cancelled" && scored(r.id) >= MIN_DEFAULT_ITEMS).slice(0, DEFAULT_RUN_COUNT);
  const chosen = requested.length ? all.filter((r) => requested.includes(r.id)) : byDefault;
  // What labelled each text-to-image run's faces: a stand-in's or an unverified classifier's rows say so in the run's
  // name, and a run whose faces come from two classifiers is not scored at all (the page says why).
  const provenance = new Map<string, LabelProvenance>();
  for (const r of chosen) if (r.modality === "t2i") provenance.set(r.id, await labelProvenance(db(), [r.id]));
  const tag = (id: string) => {
    const p = provenance.get(id);
    const t = p ? provenanceTag(p) : null;
    return t ? ` [${t}]` : "";
  };
  const mixed = chosen.filter((r) => provenance.get(r.id)?.mixed);
  const picked = chosen.filter((r) => !provenance.get(r.id)?.mixed).map((r) => ({ ...r, name: shown(r) + tag(r.id) }));
  const missing = requested.filter((id) => !all.some((r) => r.id === id));
  const refused = mixed.map((r) => `${shown(r)}: ${mixedClassifiersMessage(provenance.get(r.id)!)}`);
  return {
    all: all.map((r) => ({
      id: r.id,
      name: shown(r),
      modality: r.modality,
      status: outcomeLabel(r.status, failedOf(r.id)),
      createdAt: r.createdAt.toISOString(),
      models: r.models.map((m) => m.modelConfig.slug),
    })),
    selected: picked.map((r) => ({ id: r.id, name: r.name, modality: r.modality })),
    explicit: requested.length > 0,
    picked,
    /** cautions for rows of runs that did not complete cleanly (never ranked silently) */
    cautions: Object.fromEntries(
      picked.map((r) => [
        r.id,
        [
          r.status === "completed" && !failedOf(r.id) ? null : outcomeLabel(r.status, failedOf(r.id)),
          provenance.has(r.id) ? provenanceCaution(provenance.get(r.id)!) : null,
        ]
          .filter(Boolean)
          .join("; ") || null,
      ]),
    ) as Record<string, string | null>,
    /** what labelled each text-to-image run's faces */
    provenance: Object.fromEntries(provenance) as Record<string, LabelProvenance>,
    profile,
    error:
      error ??
      (!profileParsed.success ? `unknown scoring profile (choose ${SCORING_PROFILES.join(" or ")})` : null) ??
      (missing.length ? `unknown or unscorable run id(s): ${missing.join(", ")}` : null) ??
      (refused.length ? refused.join(" ") : null),
  };
}
export type Selection = Awaited<ReturnType<typeof loadSelection>>;
