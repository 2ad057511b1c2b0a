"use server";

import { configFromForm } from "@/lib/suites/launch-config";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { startRun } from "@/lib/features/runs/launch";
import { actionGuard } from "@/app/guard";
import { DomainError } from "@/lib/core/errors";
import { findSuite } from "@/lib/suites";
import { launchVariant } from "@/lib/suites/launch-variants";
import { fieldErrorsOf } from "@/lib/validation/friendly";
import { adaptiveTargetSchema } from "@/lib/results/adaptive";
import { reuseFromFlags } from "@/lib/results/answer-reuse";

export interface LaunchState {
  message?: string;
  fieldErrors?: Record<string, string>;
}

const suiteFormSchema = z.object({
  suite: z.string().min(1).max(64),
  variant: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.string().max(40).optional()),
  models: z.array(z.string().max(200)).min(1, "choose at least one model").max(20),
  preset: z.string().max(40),
  seed: z.coerce.number({ message: "a whole number" }).int("a whole number").min(0, "must be ≥ 0").max(2_147_483_647),
  budgetUsd: z.preprocess((v) => (v === "" || v == null ? null : v), z.coerce.number().positive("must be more than 0").nullable()),
  name: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(200).optional()),
  contentVersion: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.string().trim().max(120).optional()),
  /** a checkbox: "on" when ticked, absent otherwise */
  autoLabel: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
  /** adaptive: stop when this target is met (empty: a run of fixed size) */
  until: z.preprocess((v) => (v === "" || v == null ? undefined : v), adaptiveTargetSchema.optional()),
  /** reuse answers another run obtained (empty: every answer is this run's own) */
  reuseFrom: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.string().trim().max(64).optional()),
  reuseMaxAge: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.string().trim().max(20).optional()),
});

/** Launches a run of any suite with its generic form: the variant's fields (and fixed values), checked by the suite's schema. */
export async function launchSuiteRun(_prev: LaunchState, form: FormData): Promise<LaunchState> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { message: g.message };
  const parsed = suiteFormSchema.safeParse({
    suite: form.get("suite"),
    variant: form.get("variant"),
    models: form.getAll("models"),
    preset: form.get("preset") ?? "custom",
    seed: form.get("seed") ?? 0,
    budgetUsd: form.get("budgetUsd"),
    name: form.get("name") ?? "",
    contentVersion: form.get("contentVersion"),
    autoLabel: form.get("autoLabel"),
    until: form.get("until"),
    reuseFrom: form.get("reuseFrom"),
    reuseMaxAge: form.get("reuseMaxAge"),
  });
  if (!parsed.success) return { message: "Please fix the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error.issues) };
  const f = parsed.data;
  const suite = findSuite(f.suite);
  if (!suite) return { message: `unknown suite "${f.suite}"` };
  const variant = launchVariant(suite, f.variant);
  if (!variant) return { message: `${suite.name} has no launch form "${f.variant}"` };
  let reuseAnswers;
  try {
    reuseAnswers = reuseFromFlags(f.reuseFrom, f.reuseMaxAge);
  } catch (e) {
    const message = (e as Error).message;
    const field = message.startsWith("--reuse-answers-max-age") ? "reuseMaxAge" : "reuseFrom";
    return { message: "Please fix the highlighted fields.", fieldErrors: { [field]: message.replace(/^--reuse-answers-[a-z-]+:? ?/, "") } };
  }
  const config = configFromForm(variant.fields, form, variant.fixed);
  const checked = suite.configSchema.safeParse(config);
  if (!checked.success) return { message: "Please fix the highlighted fields.", fieldErrors: fieldErrorsOf(checked.error.issues) };
  let runId: string;
  try {
    const run = await startRun(db(), g.viewer, {
      suite: suite.id,
      config: checked.data as Record<string, unknown>,
      models: f.models,
      preset: f.preset,
      seed: f.seed,
      budgetUsd: f.budgetUsd,
      autoLabel: f.autoLabel,
      name: f.name,
      contentVersion: f.contentVersion,
      ...(f.until ? { until: f.until } : {}),
      ...(reuseAnswers ? { reuseAnswers } : {}),
    });
    runId = run.id;
  } catch (e) {
    // A target the suite cannot read is the "Stop when" field's error, shown beside it.
    if (e instanceof DomainError && e.message.startsWith("until: "))
      return { message: "Please fix the highlighted fields.", fieldErrors: { until: e.message.slice("until: ".length) } };
    if (e instanceof DomainError && e.message.startsWith("reuseAnswers: "))
      return { message: "Please fix the highlighted fields.", fieldErrors: { reuseFrom: e.message.slice("reuseAnswers: ".length) } };
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
  redirect(`/runs/${runId}`);
}
