"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { ImportError, importImages } from "@/lib/engine";
import type { ImportProblem } from "@/lib/images/import-names";

export interface ImportState {
  ok?: boolean;
  message?: string;
  problems?: ImportProblem[];
  skipped?: ImportProblem[];
  runId?: string;
  imported?: number;
}

const fieldsSchema = z.object({
  model: z.string().min(1, "choose the model the images come from"),
  runId: z.string().max(40).nullable(),
  runName: z.string().trim().max(200).nullable(),
  paths: z.array(z.string().max(500)),
});

export async function importAction(_prev: ImportState, form: FormData): Promise<ImportState> {
  const files = form.getAll("files").filter((f): f is File => f instanceof File && f.size > 0);
  const fields = fieldsSchema.safeParse({
    model: form.get("model") ?? "",
    runId: (form.get("runId") as string) || null,
    runName: (form.get("runName") as string) || null,
    paths: form.getAll("paths").map(String),
  });
  if (!fields.success) return { message: fields.error.issues[0].message };
  if (!files.length) return { message: "choose image files, a folder or a zip archive" };
  // The browser sends each file's path inside the chosen folder alongside it (File.name loses the folders).
  const paths = fields.data.paths.length === files.length ? fields.data.paths : files.map((f) => f.name);
  try {
    const uploaded = await Promise.all(files.map(async (f, i) => ({ name: paths[i], bytes: new Uint8Array(await f.arrayBuffer()) })));
    const r = await importImages(db(), env().dataDir, { modelSlug: fields.data.model, runId: fields.data.runId, runName: fields.data.runName, files: uploaded });
    revalidatePath("/runs");
    revalidatePath(`/runs/${r.runId}`);
    return { ok: true, runId: r.runId, imported: r.imported, skipped: r.skipped, message: `Imported ${r.imported} image${r.imported === 1 ? "" : "s"} (mapped by ${r.mappedBy}).` };
  } catch (e) {
    if (e instanceof ImportError) return { message: e.message, problems: e.problems };
    throw e;
  }
}
