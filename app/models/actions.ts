"use server";

import { fieldErrorsOf } from "@/lib/validation/friendly";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { archiveModel, deleteModel, modelInputSchema, upsertModel } from "@/lib/features/runs/models";
import { DomainError } from "@/lib/core/errors";
import { actionGuard } from "@/app/guard";
import { actorOf, audit } from "@/lib/auth/audit";

export interface ModelFormState {
  ok?: boolean;
  message?: string;
  fieldErrors?: Record<string, string>;
}

const blankToNull = (v: FormDataEntryValue | null) => (v === null || String(v).trim() === "" ? null : String(v).trim());
const num = (v: FormDataEntryValue | null, fallback: number) => (v === null || String(v).trim() === "" ? fallback : Number(v));

export async function saveModel(_prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  const g = await actionGuard("models.manage");
  if ("message" in g) return { message: g.message };
  const input = {
    slug: String(form.get("slug") ?? ""),
    label: String(form.get("label") ?? ""),
    modality: String(form.get("modality") ?? "llm"),
    provider: String(form.get("provider") ?? ""),
    modelId: String(form.get("modelId") ?? ""),
    baseUrl: blankToNull(form.get("baseUrl")),
    apiKeyEnv: blankToNull(form.get("apiKeyEnv")),
    temperature: num(form.get("temperature"), 0),
    maxTokens: num(form.get("maxTokens"), 64),
    priceInputPer1k: num(form.get("priceInputPer1k"), 0),
    priceOutputPer1k: num(form.get("priceOutputPer1k"), 0),
    concurrency: num(form.get("concurrency"), 8),
    requestsPerMinute: blankToNull(form.get("requestsPerMinute")) === null ? null : num(form.get("requestsPerMinute"), 0),
    tokensPerMinute: blankToNull(form.get("tokensPerMinute")) === null ? null : num(form.get("tokensPerMinute"), 0),
    width: num(form.get("width"), 1024),
    height: num(form.get("height"), 1024),
    quality: blankToNull(form.get("quality")),
    pricePerImage: num(form.get("pricePerImage"), 0),
  };
  const parsed = modelInputSchema.safeParse(input);
  if (!parsed.success) {
    return { message: "Please fix the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error.issues as z.core.$ZodIssue[]) };
  }
  const m = await upsertModel(db(), parsed.data, g.viewer.id);
  await audit(db(), {
    ...actorOf(g.viewer),
    action: "model.save",
    targetType: "model",
    targetId: m.slug,
    details: { provider: m.provider, modelId: m.modelId, baseUrl: m.baseUrl, credential: m.apiKeyEnv },
  });
  revalidatePath("/models");
  revalidatePath("/runs/new");
  revalidatePath("/runs/import");
  return { ok: true, message: `Saved ${m.label}.` };
}

const slugSchema = z.string().trim().min(1).max(80);
const manageSchema = z.object({ slug: slugSchema, op: z.enum(["archive", "restore", "delete"]) });

/** Archive (hide from launches; results keep it), restore, or delete a model no run refers to. */
export async function manageModel(_prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  const g = await actionGuard("models.manage");
  if ("message" in g) return { message: g.message };
  const parsed = manageSchema.safeParse({ slug: form.get("slug"), op: form.get("op") });
  if (!parsed.success) return { message: "Unknown model or operation." };
  const { slug, op } = parsed.data;
  try {
    if (op === "delete") await deleteModel(db(), slug);
    else await archiveModel(db(), slug, op === "archive", g.viewer.id);
    await audit(db(), {
      ...actorOf(g.viewer),
      action: op === "delete" ? "model.delete" : op === "archive" ? "model.archive" : "model.restore",
      targetType: "model",
      targetId: slug,
    });
  } catch (e) {
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
  revalidatePath("/models");
  revalidatePath("/runs/new");
  revalidatePath("/runs/import");
  return { ok: true, message: op === "delete" ? `Deleted ${slug}.` : op === "archive" ? `Archived ${slug}.` : `Restored ${slug}.` };
}
