// The plan re-derived: a bundle's queries are not trusted to be the ones the run was planned with. The run's suite
// plans again — from the content the bundle carries (its digest signed in the design), the configuration and the
// seed — and its rows are written beside the run's (./plan-write.ts; an adaptive run's cut into waves by the
// engine's own code, with the schedule signed at launch). Every stored query is then compared, column for column,
// with the row planning wrote in its place: its prompt as rendered, its options, identity, ground truth and
// coordinates, which helper answer it waits for, and its wave. An insider who edits a prompt, swaps a ground truth,
// drops the rows a model did badly on, adds rows of their own, or moves rows between waves is named here, before
// the readings and the scores (which would otherwise count them faithfully).
//
// Which rows may be missing is the engine's rule (lib/features/runs/runs.ts planQueries, ../runs/adaptive.ts
// takeLook): helper rows first, then each audited model's, each group in planning order. A run cancelled (or failed)
// while planning keeps a prefix of that order; an adaptive run that stopped keeps exactly the waves up to its last
// look; every other run keeps every row. Run by `fof verify` and the browser verifier alike.
import type { PrismaClient } from "../../../generated/prisma/client";
import type { ImportedImage } from "../../evidence/imports";
import { adaptiveStateOf } from "../../results/adaptive";
import { suiteOf } from "../../suites";
import { UNRELEASED_WAVE } from "../runs/adaptive";
import { checkContent } from "./plan-content";
import { imagesAgainstPlan, plannedPrompts } from "./plan-images";
import { PLANNED, writePlanBeside, type PlanGroup } from "./plan-write";

const PAGE = 2000;
const MAX_NAMED = 20;

export interface PlanCheck {
  /** query rows compared with the rows planned again */
  compared: number;
  /** rows the plan gives for the run's models (an adaptive run that stopped: those of its waves up to the stop) */
  planned: number;
  /** a short account: what was kept of the plan */
  kept: string;
  /** what the content planned from is known to be (./plan-content.ts) */
  content?: string;
  problems: string[];
}

type Row = Record<(typeof PLANNED)[number], string | number | null> & { id: number; dependsOnId: number | null; wave: number };
const SELECT = { id: true, dependsOnId: true, wave: true, ...Object.fromEntries(PLANNED.map((c) => [c, true])) };

/** A model's rows of one run in id order, a page at a time. */
function pager(prisma: PrismaClient, runId: string, modelConfigId: string, maxWave: number) {
  let after = 0;
  let page: Row[] = [];
  let at = 0;
  return async (): Promise<Row | null> => {
    if (at === page.length) {
      page = (await prisma.query.findMany({
        where: { runId, modelConfigId, id: { gt: after }, ...(Number.isFinite(maxWave) ? { wave: { lte: maxWave } } : {}) },
        orderBy: { id: "asc" },
        take: PAGE,
        select: SELECT,
      })) as unknown as Row[];
      at = 0;
      if (!page.length) return null;
      after = page.at(-1)!.id;
    }
    return page[at++]!;
  };
}

type Group = PlanGroup & { firstId: number | null; lastId: number | null; matched: number; planned: number; outOfStep: boolean };

export async function replanCheck(
  prisma: PrismaClient,
  runId: string,
  /** an import's images as its signed batches list them (lib/evidence/imports.ts); null: none carried */
  opts: { imported?: ImportedImage[] | null } = {},
): Promise<PlanCheck> {
  const run = await prisma.run.findUniqueOrThrow({
    where: { id: runId },
    select: {
      suiteId: true,
      preset: true,
      configJson: true,
      seed: true,
      status: true,
      adaptiveJson: true,
      wavesReleased: true,
      benchmarkVersion: { select: { version: true, sha256: true, contentJson: true } },
    },
  });
  const suite = suiteOf(run.suiteId);
  const problems: string[] = [];
  let more = 0;
  const problem = (p: string) => (problems.length < MAX_NAMED ? problems.push(p) : more++);
  const source = checkContent(suite, run.benchmarkVersion, problem);
  const done = (r: Omit<PlanCheck, "problems" | "content">): PlanCheck => ({
    ...r,
    content: source,
    problems: more ? [...problems, `and ${more} more`] : problems,
  });
  if (problems.length) return done({ compared: 0, planned: 0, kept: "" });
  let config: unknown;
  let content: Parameters<typeof suite.plan>[1];
  try {
    config = suite.configSchema.parse(JSON.parse(run.configJson));
    content = suite.parseContent(run.benchmarkVersion.contentJson);
  } catch (e) {
    problem(`the run cannot be planned again: ${(e as Error).message.slice(0, 300)}`);
    return done({ compared: 0, planned: 0, kept: "" });
  }
  // An import: images made elsewhere, no query planned or called. Its images stand at prompts its configuration plans.
  if (run.preset === "import") {
    const signed = opts.imported ?? null;
    const images = await imagesAgainstPlan(
      prisma,
      { runId, imported: true, batches: signed, plannedAt: () => plannedPrompts(suite, config, content, run.seed) },
      problem,
    );
    return done({
      compared: 0,
      planned: 0,
      kept: signed
        ? `an import: ${images} images made elsewhere, exactly those its signed batches list, each at a prompt its configuration plans`
        : `an import: ${images} images made elsewhere, each at a prompt its configuration plans (no signed batches carried: which images were imported is the bundle's word)`,
    });
  }
  const runModels = await prisma.runModel.findMany({ where: { runId }, select: { modelConfigId: true, modelConfig: { select: { slug: true } } } });
  const helperSlug = suite.helperModel?.(config) ?? null;
  const groups: Group[] = runModels
    .map((m) => ({
      modelConfigId: m.modelConfigId,
      slug: m.modelConfig.slug,
      role: m.modelConfig.slug === helperSlug ? ("helper" as const) : ("subject" as const),
      firstId: null,
      lastId: null,
      matched: 0,
      planned: 0,
      outOfStep: false,
    }))
    .sort((a, b) => (a.role === b.role ? 0 : a.role === "helper" ? -1 : 1));
  if (helperSlug && !groups.some((g) => g.role === "helper"))
    problem(`the configuration names the helper model "${helperSlug}", which is not among the run's models`);
  const state = run.adaptiveJson === null ? null : adaptiveStateOf(run.adaptiveJson);
  if (run.adaptiveJson !== null && !state) problem("the run's stopping rule cannot be read");
  if (problems.length) return done({ compared: 0, planned: 0, kept: "" });
  // an adaptive run that stopped keeps the waves up to its last look; waves are cut once planning is over
  const stopLook = state?.outcome ? state.outcome.look : Number.POSITIVE_INFINITY;
  const cutIntoWaves = state !== null && run.wavesReleased > 0;

  const beside = await writePlanBeside(prisma, {
    runId,
    suite,
    config,
    content,
    seed: run.seed,
    groups,
    waves: state ? { schedule: state.schedule, intervalTarget: state.intervalTarget } : null,
  });
  let compared = 0;
  // the whole plan, every wave: what a stop left uncalled is counted, not carried
  const whole = await prisma.query.count({ where: { runId: beside } });
  try {
    // the stored id of each helper row, by the id of the row planned in its place
    const helperOf = new Map<number, number>();
    for (const g of groups) {
      g.planned = await prisma.query.count({
        where: { runId: beside, modelConfigId: g.modelConfigId, ...(state?.outcome ? { wave: { lte: stopLook } } : {}) },
      });
      const nextPlanned = pager(prisma, beside, g.modelConfigId, stopLook);
      const nextStored = pager(prisma, runId, g.modelConfigId, Number.POSITIVE_INFINITY);
      let [want, got] = await Promise.all([nextPlanned(), nextStored()]);
      while (want && got) {
        const differs = difference(want, got, helperOf) ?? waveDifference(want, got, state === null, cutIntoWaves);
        if (differs) {
          problem(`query ${got.id} (${g.slug}): ${differs}`);
          g.outOfStep = true; // the rest of this model's rows are not compared one by one
          break;
        }
        if (g.role === "helper") helperOf.set(want.id, got.id);
        compared++;
        g.matched++;
        g.firstId ??= got.id;
        g.lastId = got.id;
        [want, got] = await Promise.all([nextPlanned(), nextStored()]);
      }
      if (got && !g.outOfStep) {
        problem(`query ${got.id} (${g.slug}): not a row the plan gives after the ones before it: ${got.test} · ${got.statisticId} · ${clip(got.prompt)}`);
        g.outOfStep = true;
      }
    }
  } finally {
    await prisma.run.delete({ where: { id: beside } });
  }
  const inGroups = groups.reduce((n, g) => n + g.matched, 0);
  const planned = groups.reduce((n, g) => n + g.planned, 0);
  if (problems.length) return done({ compared, planned, kept: "" });
  await imagesAgainstPlan(prisma, { runId, imported: false, batches: null, plannedAt: () => [] }, problem);
  const strays = (await prisma.query.count({ where: { runId } })) - inGroups;
  if (strays > 0) problem(`${strays} quer${strays === 1 ? "y is" : "ies are"} of no model of the run`);

  // In planning order: helper rows, then one model's rows after another; only the last group with rows may be cut
  // short, and only in a run stopped while planning.
  const withRows = groups.filter((g) => g.firstId !== null).sort((a, b) => a.firstId! - b.firstId!);
  for (let i = 1; i < withRows.length; i++) {
    const [a, b] = [withRows[i - 1]!, withRows[i]!];
    if (a.lastId! > b.firstId!) problem(`${a.slug}'s and ${b.slug}'s rows interleave: planning writes one model's rows after another's`);
    if (b.role === "helper") problem(`the helper model's rows come after ${a.slug}'s: planning writes them first`);
  }
  const short = groups.filter((g) => g.matched < g.planned);
  const stoppedWhilePlanning = !state?.outcome && (run.status === "cancelled" || run.status === "failed");
  if (short.length && !stoppedWhilePlanning)
    problem(
      `a ${run.status} run${state?.outcome ? ` stopped at look ${stopLook}` : ""} keeps ${inGroups} of the ${planned} rows its plan gives${state?.outcome ? " up to that look" : ""}: only a run stopped while planning keeps fewer`,
    );
  else if (short.length) {
    const cut = withRows.findIndex((g) => g.matched < g.planned);
    if (cut >= 0 && cut < withRows.length - 1)
      problem(`${withRows[cut]!.slug} has ${withRows[cut]!.matched} of its ${withRows[cut]!.planned} planned rows, yet rows planned after them are kept`);
  }
  return done({
    compared,
    planned,
    kept:
      inGroups < planned
        ? `${inGroups} of ${planned} planned rows (${run.status} while planning)`
        : state?.outcome
          ? `every row of waves 1–${stopLook}, where its rule stopped it; the ${whole - planned} planned rows of later waves skipped by the rule, never called`
          : "every planned row",
  });
}

const clip = (s: unknown) => {
  const t = String(s ?? "");
  return JSON.stringify(t.length > 80 ? `${t.slice(0, 80)}…` : t);
};

/** The first column in which a stored row is not the planned one (null: it is the planned row). */
function difference(want: Row, got: Row, helperOf: Map<number, number>): string | null {
  for (const c of PLANNED) if ((want[c] ?? null) !== (got[c] ?? null)) return `${c} stored ${clip(got[c])}, the plan gives ${clip(want[c])}`;
  const waits = want.dependsOnId === null ? null : (helperOf.get(want.dependsOnId) ?? -1);
  if (waits !== (got.dependsOnId ?? null))
    return waits === -1
      ? `it waits for query ${got.dependsOnId}, but the helper row the plan names is not kept`
      : `it waits for query ${got.dependsOnId ?? "none"}, the plan says ${waits ?? "none"}`;
  return null;
}

/** A run of fixed size has every row in wave 0; an adaptive one, once cut, the wave the cut gives; before, none. */
function waveDifference(want: Row, got: Row, fixed: boolean, cut: boolean): string | null {
  const should = fixed ? 0 : cut ? want.wave : UNRELEASED_WAVE;
  return got.wave === should ? null : `wave stored ${got.wave}, the plan gives ${should}`;
}
