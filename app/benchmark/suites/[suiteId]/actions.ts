"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { actionGuard } from "@/app/guard";
import { reviewItem } from "@/lib/suites/content-review-write";
import { DomainError } from "@/lib/core/errors";
import { ZodError } from "zod";
import { audit } from "@/lib/auth/audit";
import { importSuiteData } from "@/lib/suites/content-versions";
import { DATA_FILE_LIMITS } from "@/lib/suites/data-files";

export interface ItemReviewState {
  message?: string;
  ok?: boolean;
}

/** Verify or dispute one content item (a reviewer's verdict, recorded with their name and an audit row). */
export async function reviewItemAction(_prev: ItemReviewState, form: FormData): Promise<ItemReviewState> {
  const g = await actionGuard("content.review");
  if ("message" in g) return { message: g.message };
  try {
    await reviewItem(
      db(),
      {
        suiteId: String(form.get("suiteId") ?? ""),
        itemId: String(form.get("itemId") ?? ""),
        state: String(form.get("state") ?? "") as "verified",
        note: String(form.get("note") ?? ""),
      },
      { id: g.viewer.id, name: g.viewer.name },
    );
  } catch (e) {
    if (e instanceof ZodError) return { message: e.issues[0]?.message ?? "invalid review" };
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
  revalidatePath(`/benchmark/suites/${String(form.get("suiteId"))}`);
  return { ok: true };
}

export interface DataImportState {
  message?: string;
  ok?: string;
}

/** An admin imports a suite's data from files (e.g. the official DoFaiR CSVs): a new content version, or the same one again. */
export async function importSuiteDataAction(_prev: DataImportState, form: FormData): Promise<DataImportState> {
  const g = await actionGuard("content.import");
  if ("message" in g) return { message: g.message };
  const suiteId = String(form.get("suiteId") ?? "");
  const files = form.getAll("files").filter((f): f is File => typeof f === "object" && f !== null && "arrayBuffer" in f && (f as File).size > 0);
  if (!files.length) return { message: "choose the files to import" };
  // Sizes are checked before anything is read.
  if (files.length > DATA_FILE_LIMITS.maxFiles) return { message: `${files.length} files: at most ${DATA_FILE_LIMITS.maxFiles}` };
  const big = files.find((f) => f.size > DATA_FILE_LIMITS.maxFileBytes);
  if (big) return { message: `${big.name}: more than ${DATA_FILE_LIMITS.maxFileBytes / 1024 / 1024} MB` };
  try {
    const read = await Promise.all(files.map(async (f) => ({ name: f.name.slice(0, 200), text: await f.text() })));
    const r = await importSuiteData(db(), suiteId, read);
    await audit(db(), {
      userId: g.viewer.id,
      action: "content.import",
      targetType: "suite",
      targetId: suiteId,
      details: { version: r.version, sha256: r.sha256, created: r.created, files: read.map((f) => f.name) },
    });
    revalidatePath(`/benchmark/suites/${suiteId}`);
    return { ok: `${r.created ? "Imported" : "Already imported"}: content ${r.version}. Choose it under Content when launching a run.` };
  } catch (e) {
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
}
