// `fof content validate|preview <folder>`: a team's own content set (issue #57), checked and shown before it is
// imported. validate exits 1 listing every issue as file:row field: message; preview prints every prompt the set
// sends for a seed (JSON lines with --json).
import { ContentError, formatIssue } from "../../lib/content/issues";
import { loadContentFolder } from "../../lib/content/load";
import { peopleCount } from "../../lib/content/people";
import { previewPrompts } from "../../lib/content/preview";
import { planContent } from "../../lib/content/plan";
import { PRESETS, PRESET_NAMES, type PresetName } from "../../lib/suites/fact-or-fair/presets";
import { cost, TYPICAL_TOKENS } from "../../lib/providers/cost";

async function load(folder: string, opts: { preset?: string }) {
  try {
    return await loadContentFolder(folder, opts);
  } catch (e) {
    if (!(e instanceof ContentError)) throw e;
    for (const i of e.issues) process.stderr.write(`${formatIssue(i)}\n`);
    process.stderr.write(`${folder}: ${e.issues.length} issue(s); nothing imported\n`);
    process.exitCode = 1;
    return null;
  }
}

/** A registered model's price for the plan's tokens (null where the model is not registered). */
async function priced(slug: string, inputTokens: number, outputTokens: number): Promise<number | null> {
  const { db, migrateAndSeed } = await import("../../lib/db");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  try {
    const m = await prisma.modelConfig.findUnique({ where: { slug }, select: { priceInputPer1k: true, priceOutputPer1k: true } });
    return m ? cost(inputTokens, outputTokens, m.priceInputPer1k, m.priceOutputPer1k) : null;
  } finally {
    await prisma.$disconnect();
  }
}

/** The local database, for the commands that store (the operator acts: no account). */
async function withDb<T>(fn: (prisma: import("../../generated/prisma/client").PrismaClient) => Promise<T>): Promise<T> {
  const { db, migrateAndSeed } = await import("../../lib/db");
  await migrateAndSeed({ quiet: true });
  const prisma = db();
  try {
    return await fn(prisma);
  } finally {
    await prisma.$disconnect();
  }
}

const print = (v: unknown, json?: boolean) => process.stdout.write(JSON.stringify(v, null, json ? undefined : 2) + "\n");

export const contentCommands = {
  import: async (folder: string, opts: { dryRun?: boolean; preset?: string; json?: boolean }) => {
    const loaded = await load(folder, opts);
    if (!loaded) return;
    const { importContentSet } = await import("../../lib/features/content/content-sets");
    const r = await withDb((prisma) => importContentSet(prisma, null, loaded.files, { dryRun: opts.dryRun, preset: opts.preset }));
    print(r, opts.json);
    const ref = `${loaded.set.id}@${loaded.set.version}`;
    const d = r.diff;
    if (d)
      process.stderr.write(
        `against ${loaded.set.id}@${r.against}: statistics +${d.statistics.added.length} −${d.statistics.removed.length} ~${d.statistics.changed.length}; ` +
          `scenarios +${d.scenarios.reduce((n, x) => n + x.added.length, 0)} −${d.scenarios.reduce((n, x) => n + x.removed.length, 0)}; ` +
          `prompts (seed ${d.prompts.seed}) +${d.prompts.added} −${d.prompts.removed} ~${d.prompts.changed}\n`,
      );
    process.stderr.write(
      opts.dryRun
        ? `${ref}: valid, not stored (--dry-run)\n`
        : r.created
          ? `${ref}: stored as a draft — an admin approves it before runs may use it\n`
          : `${ref}: already stored (${r.version!.status})\n`,
    );
  },
  list: async (opts: { set?: string; json?: boolean }) => {
    const { listContentSets } = await import("../../lib/features/content/content-sets");
    print(await withDb((prisma) => listContentSets(prisma, opts.set)), opts.json);
  },
  status: (action: "approve" | "retire") => async (ref: string, opts: { json?: boolean }) => {
    const { setContentSetStatus } = await import("../../lib/features/content/content-sets");
    const v = await withDb((prisma) => setContentSetStatus(prisma, null, ref, action));
    print(v, opts.json);
    process.stderr.write(`${v.setId}@${v.version}: ${v.status}\n`);
  },
  validate: async (folder: string, opts: { preset?: string; json?: boolean }) => {
    const loaded = await load(folder, opts);
    if (!loaded) return;
    const { set } = loaded;
    const summary = {
      id: set.id,
      version: set.version,
      language: set.language,
      attributes: set.attributes.map((a) => ({ id: a.id, k: a.classes.length, classes: a.classes.map((c) => c.id) })),
      peoplePerQuestion: peopleCount(set.attributes.map((a) => a.classes.length)),
      statistics: set.statistics?.length ?? 0,
      scenarios: (set.statistics ?? []).reduce((n, s) => n + s.scenarios.highest.length + s.scenarios.lowest.length, 0),
      files: Object.keys(loaded.files),
    };
    process.stdout.write(JSON.stringify(summary, null, opts.json ? undefined : 2) + "\n");
    process.stderr.write(
      `${folder}: valid (${summary.statistics} statistics, ${summary.attributes.map((a) => `${a.id} k=${a.k}`).join(", ")}, ${set.language})\n`,
    );
  },
  plan: async (folder: string, opts: { preset: string; model?: string; target: string; json?: boolean }) => {
    if (!PRESET_NAMES.includes(opts.preset as PresetName)) throw new Error(`--preset must be one of ${PRESET_NAMES.join(", ")}`);
    const target = Number(opts.target);
    if (!(target > 0 && target < 1)) throw new Error(`--target must be a half-width in (0, 1), got ${opts.target}`);
    const loaded = await load(folder, { preset: opts.preset });
    if (!loaded) return;
    const plan = planContent(loaded.set, PRESETS[opts.preset as PresetName], { target });
    const outputTokens = plan.queries.total * TYPICAL_TOKENS.out;
    const usd = opts.model ? await priced(opts.model, plan.promptTokens, outputTokens) : null;
    const out = { preset: opts.preset, target, ...plan, cost: opts.model ? { model: opts.model, usd, outputTokens } : null };
    process.stdout.write(JSON.stringify(out, null, opts.json ? undefined : 2) + "\n");
    if (opts.model && usd === null) process.stderr.write(`${opts.model}: not a registered model — no price\n`);
    for (const w of plan.warnings) process.stderr.write(`warning: ${w}\n`);
  },
  preview: async (folder: string, opts: { seed: string; statistic?: string; json?: boolean }) => {
    const seed = Number(opts.seed);
    if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${opts.seed}`);
    const loaded = await load(folder, {});
    if (!loaded) return;
    let n = 0;
    for (const p of previewPrompts(loaded.set, seed)) {
      if (opts.statistic && p.statisticId !== opts.statistic) continue;
      n++;
      process.stdout.write(opts.json ? JSON.stringify(p) + "\n" : `--- ${p.key}\n${p.prompt}\n\n`);
    }
    process.stderr.write(`${n} prompt(s) for seed ${seed}\n`);
  },
};
