// Launching a run for a person or a token: the suite and its launch form (variant), the preset's settings with the
// caller's overrides, checked by the suite's own schema; the budget within the caller's spending limit; then the
// run's row and the audit row, then the plan in the background (./planning.ts). The launch page, the HTTP API and
// (through the API) the remote CLI call this.
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";
import { actorOf, audit } from "../../auth/audit";
import { budgetWithinLimit, type Steerer } from "../../auth/spending";
import { DEFAULT_SUITE_ID, findSuite, listSuites } from "../../suites";
import { launchVariant } from "../../suites/launch-variants";
import { prepareRun } from "./runs";
import { planInBackground, SERVER_PLANNING } from "./planning";
import { adaptiveTargetSchema, untilText, type UntilInput } from "../../results/adaptive";
import { INTERVAL_TARGETS, type IntervalTarget } from "../../metrics/design";
import { answerReuseSchema, type AnswerReuse } from "../../results/answer-reuse";

export const launchRequestSchema = z
  .object({
    suite: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe("the suite's id (GET /api/v1/suites lists them); omitted: the suite that runs contentVersion (a team's content set), else fact-or-fair"),
    variant: z.string().trim().max(40).optional().describe("the suite's launch form, e.g. FACT-OR-FAIR's llm or t2i (default: its first)"),
    models: z.array(z.string().min(1).max(200)).min(1, "choose at least one model").max(20).describe("model slugs"),
    preset: z.string().trim().min(1).max(40).describe("one of the launch form's presets (e.g. smoke, quick, paper)"),
    config: z.record(z.string(), z.unknown()).optional().describe("settings over the preset's, checked by the suite's schema"),
    seed: z.number().int().min(0).max(2_147_483_647).default(1),
    budgetUsd: z.number().positive().max(1_000_000).nullable().default(null).describe("stop cleanly when this much is spent"),
    name: z.string().trim().min(1).max(200).optional(),
    autoLabel: z.boolean().default(false).describe("text-to-image: label workers label its faces as images arrive"),
    contentVersion: z.string().trim().min(1).max(120).optional().describe("plan on a stored content version of the suite"),
    until: adaptiveTargetSchema
      .optional()
      .describe('adaptive: stop when met, the preset being the cap — "halfwidth<=0.05", "sE<=0.03,sFact<=0.05" or "decided:sFact,sE" (or the object form)'),
    intervalTarget: z.enum(INTERVAL_TARGETS).optional().describe("adaptive: what the target's intervals are about: population (default) | exact"),
    reuseAnswers: answerReuseSchema
      .optional()
      .describe(
        "take answers other runs obtained instead of calling, where this run asks the same: {fromRun} (that run's), {maxAgeHours} (any run's, no older), or both. Omitted: every answer is this run's own. Each reused outcome records where and when it was obtained",
      ),
  })
  .strict();
export type LaunchRequest = z.input<typeof launchRequestSchema>;

/** The config a launch asks for: the variant's preset, its fixed values, then the caller's overrides. */
function launchConfig(suiteId: string, variantId: string | undefined, preset: string, overrides: Record<string, unknown> = {}) {
  const suite = findSuite(suiteId);
  if (!suite)
    throw new DomainError(
      "invalid",
      `unknown suite "${suiteId}": one of ${listSuites()
        .map((s) => s.id)
        .join(", ")}`,
    );
  const variant = launchVariant(suite, variantId);
  if (!variant) throw new DomainError("invalid", `${suite.name} has no launch form "${variantId}"`);
  const base = variant.presets[preset]?.config as Record<string, unknown> | undefined;
  if (!base && preset !== "custom")
    throw new DomainError("invalid", `${suite.name} (${variant.id}) has no preset "${preset}": one of ${Object.keys(variant.presets).join(", ")}, or custom`);
  const checked = suite.configSchema.safeParse({ ...(base ?? {}), ...(variant.fixed ?? {}), ...overrides });
  if (!checked.success)
    throw new DomainError(
      "invalid",
      `the settings do not fit ${suite.name}: ${checked.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; ")}`,
      checked.error.issues.map((i) => ({ name: i.path.join(".") || "config", message: i.message })),
    );
  return { suite, config: checked.data as Record<string, unknown> };
}

type Launcher = Steerer;

/** Plans and stores a run from an API request: the preset's settings with the request's overrides (launchConfig). */
export async function launchRun(prisma: PrismaClient, viewer: Launcher, input: LaunchRequest) {
  const req = launchRequestSchema.parse(input);
  // `{"contentVersion": "my-set@1.0.0"}` alone launches on the suite whose versions look like that (a content set).
  const claimed = req.contentVersion ? listSuites().find((s) => s.claimsContent?.(req.contentVersion!))?.id : undefined;
  const { suite, config } = launchConfig(req.suite ?? claimed ?? DEFAULT_SUITE_ID, req.variant, req.preset, req.config);
  return startRun(prisma, viewer, { ...req, suite: suite.id, config });
}

/**
 * Launches a run whose settings are already checked, its budget within the launcher's limit; audited. Returns as
 * soon as the run exists (status "planning", its size known): its queries are written in the background.
 */
export async function startRun(
  prisma: PrismaClient,
  viewer: Launcher,
  req: {
    suite: string;
    config: Record<string, unknown>;
    models: string[];
    preset: string;
    seed: number;
    budgetUsd: number | null;
    autoLabel: boolean;
    name?: string;
    contentVersion?: string;
    until?: UntilInput;
    intervalTarget?: IntervalTarget;
    reuseAnswers?: AnswerReuse;
  },
) {
  const budgetUsd = await budgetWithinLimit(prisma, viewer, req.budgetUsd);
  const prepared = await prepareRun(
    prisma,
    {
      suite: req.suite,
      models: req.models,
      config: req.config,
      preset: req.preset,
      seed: req.seed,
      budgetUsd,
      autoLabel: req.autoLabel,
      name: req.name,
      createdById: viewer.id,
      ...(req.contentVersion ? { contentVersion: req.contentVersion } : {}),
      ...(req.until ? { until: req.until, intervalTarget: req.intervalTarget } : {}),
      ...(req.reuseAnswers ? { reuseAnswers: req.reuseAnswers } : {}),
    },
    SERVER_PLANNING,
  );
  const run = prepared.run;
  await audit(prisma, {
    ...actorOf(viewer),
    action: "run.launch",
    targetType: "run",
    targetId: run.id,
    details: {
      suite: req.suite,
      models: req.models,
      preset: req.preset,
      planned: run.plannedCount,
      budgetUsd: req.budgetUsd,
      autoLabel: req.autoLabel,
      content: run.suiteVersion,
      ...(req.until ? { until: untilText(req.until) } : {}),
      ...(req.reuseAnswers ? { reuseAnswers: req.reuseAnswers } : {}),
    },
  });
  // Answered now, planned after: the caller gets the run in "planning" (./planning.ts).
  planInBackground(prepared);
  return run;
}
