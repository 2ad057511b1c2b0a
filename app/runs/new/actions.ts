"use server";

import { configFromForm } from "@/lib/suites/launch-config";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { createRun, RunError, runConfigSchema, t2iRunConfigSchema } from "@/lib/engine";
import { actionGuard } from "@/app/guard";
import { audit } from "@/lib/auth/audit";
import { budgetWithinLimit } from "@/lib/auth/spending";
import { DomainError } from "@/lib/engine/errors";
import { findSuite } from "@/lib/suites";

export interface LaunchState {
  message?: string;
  fieldErrors?: Record<string, string>;
}

const formSchema = z.object({
  models: z.array(z.string()).min(1, "choose at least one model"),
  tests: z.array(z.enum(["objective", "subjective"])).min(1, "choose at least one test"),
  contexts: z.array(z.enum(["baseline", "representativeness", "attribution", "ingroup"])),
  preset: z.enum(["paper", "quick", "smoke", "custom"]),
  objectiveRepeats: z.coerce.number({ message: "a whole number" }).int("a whole number").min(1, "must be ≥ 1").max(1000, "must be ≤ 1000"),
  subjectiveRepeats: z.coerce.number({ message: "a whole number" }).int("a whole number").min(1, "must be ≥ 1").max(1000, "must be ≤ 1000"),
  seed: z.coerce.number({ message: "a whole number" }).int("a whole number").min(0, "must be ≥ 0").max(2_147_483_647, "must be ≤ 2147483647"),
  budgetUsd: z.preprocess((v) => (v === "" || v == null ? null : v), z.coerce.number().positive("must be more than 0").nullable()),
  name: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(200).optional()),
});

export async function launchRun(_prev: LaunchState, form: FormData): Promise<LaunchState> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { message: g.message };
  const parsed = formSchema.safeParse({
    models: form.getAll("models"),
    tests: form.getAll("tests"),
    contexts: form.getAll("contexts"),
    preset: form.get("preset"),
    objectiveRepeats: form.get("objectiveRepeats"),
    subjectiveRepeats: form.get("subjectiveRepeats"),
    seed: form.get("seed"),
    budgetUsd: form.get("budgetUsd"),
    name: form.get("name") ?? "",
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0])] ??= i.message;
    return { message: "Please fix the highlighted fields.", fieldErrors };
  }
  const f = parsed.data;
  const config = runConfigSchema.safeParse({ tests: f.tests, contexts: f.contexts, objectiveRepeats: f.objectiveRepeats, subjectiveRepeats: f.subjectiveRepeats });
  if (!config.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of config.error.issues) fieldErrors[String(i.path[0] ?? "tests")] ??= i.message;
    return { message: "Please fix the highlighted fields.", fieldErrors };
  }
  let runId: string;
  try {
    const budgetUsd = await budgetWithinLimit(db(), g.viewer, f.budgetUsd);
    const run = await createRun(db(), { models: f.models, config: config.data, preset: f.preset, seed: f.seed, budgetUsd, name: f.name, createdById: g.viewer.id });
    runId = run.id;
    await audit(db(), { userId: g.viewer.id, action: "run.launch", targetType: "run", targetId: run.id, details: { models: f.models, preset: f.preset, queries: run.plannedCount, budgetUsd: f.budgetUsd } });
  } catch (e) {
    if (e instanceof RunError || e instanceof DomainError) return { message: e.message };
    throw e;
  }
  redirect(`/runs/${runId}`);
}

const t2iFormSchema = z.object({
  models: z.array(z.string()).min(1, "choose at least one model"),
  tests: z.array(z.enum(["objective", "subjective"])).min(1, "choose at least one test"),
  preset: z.enum(["paper", "quick", "smoke", "custom"]),
  imagesPerPrompt: z.coerce.number({ message: "a whole number" }).int("a whole number").min(1, "must be ≥ 1").max(200, "must be ≤ 200"),
  budgetUsd: z.preprocess((v) => (v === "" || v == null ? null : v), z.coerce.number().positive("must be more than 0").nullable()),
  name: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(200).optional()),
});

export async function launchT2iRun(_prev: LaunchState, form: FormData): Promise<LaunchState> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { message: g.message };
  const parsed = t2iFormSchema.safeParse({
    models: form.getAll("models"),
    tests: form.getAll("tests"),
    preset: form.get("preset"),
    imagesPerPrompt: form.get("imagesPerPrompt"),
    budgetUsd: form.get("budgetUsd"),
    name: form.get("name") ?? "",
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0])] ??= i.message;
    return { message: "Please fix the highlighted fields.", fieldErrors };
  }
  const f = parsed.data;
  let runId: string;
  try {
    const config = t2iRunConfigSchema.parse({ modality: "t2i", tests: f.tests, imagesPerPrompt: f.imagesPerPrompt });
    // Prompts of T2I runs are fixed text: the seed only names the run.
    const budgetUsd = await budgetWithinLimit(db(), g.viewer, f.budgetUsd);
    const run = await createRun(db(), { models: f.models, config, preset: f.preset, seed: 0, budgetUsd, name: f.name, createdById: g.viewer.id });
    runId = run.id;
    await audit(db(), { userId: g.viewer.id, action: "run.launch", targetType: "run", targetId: run.id, details: { models: f.models, preset: f.preset, images: run.plannedCount, budgetUsd: f.budgetUsd } });
  } catch (e) {
    if (e instanceof RunError || e instanceof DomainError) return { message: e.message };
    throw e;
  }
  redirect(`/runs/${runId}`);
}

const suiteFormSchema = z.object({
  suite: z.string().min(1).max(64),
  models: z.array(z.string().max(200)).min(1, "choose at least one model").max(20),
  preset: z.string().max(40),
  seed: z.coerce.number({ message: "a whole number" }).int("a whole number").min(0, "must be ≥ 0").max(2_147_483_647),
  budgetUsd: z.preprocess((v) => (v === "" || v == null ? null : v), z.coerce.number().positive("must be more than 0").nullable()),
  name: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(200).optional()),
  contentVersion: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.string().trim().max(120).optional()),
});

/** Launches a run of any suite with a generic form: the suite's launch fields, checked by the suite's schema. */
export async function launchSuiteRun(_prev: LaunchState, form: FormData): Promise<LaunchState> {
  const g = await actionGuard("runs.manage");
  if ("message" in g) return { message: g.message };
  const parsed = suiteFormSchema.safeParse({ suite: form.get("suite"), models: form.getAll("models"), preset: form.get("preset") ?? "custom", seed: form.get("seed") ?? 0, budgetUsd: form.get("budgetUsd"), name: form.get("name") ?? "", contentVersion: form.get("contentVersion") });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0])] ??= i.message;
    return { message: "Please fix the highlighted fields.", fieldErrors };
  }
  const f = parsed.data;
  const suite = findSuite(f.suite);
  if (!suite) return { message: `unknown suite "${f.suite}"` };
  const config = configFromForm(suite.launchFields, form);
  const checked = suite.configSchema.safeParse(config);
  if (!checked.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of checked.error.issues) fieldErrors[String(i.path[0])] ??= i.message;
    return { message: "Please fix the highlighted fields.", fieldErrors };
  }
  let runId: string;
  try {
    const budgetUsd = await budgetWithinLimit(db(), g.viewer, f.budgetUsd);
    const run = await createRun(db(), { suite: suite.id, models: f.models, config: checked.data as Record<string, unknown>, preset: f.preset, seed: f.seed, budgetUsd, name: f.name, createdById: g.viewer.id, ...(f.contentVersion ? { contentVersion: f.contentVersion } : {}) });
    runId = run.id;
    await audit(db(), { userId: g.viewer.id, action: "run.launch", targetType: "run", targetId: run.id, details: { suite: suite.id, models: f.models, preset: f.preset, planned: run.plannedCount, budgetUsd: f.budgetUsd, content: run.suiteVersion } });
  } catch (e) {
    if (e instanceof RunError || e instanceof DomainError) return { message: e.message };
    throw e;
  }
  redirect(`/runs/${runId}`);
}
