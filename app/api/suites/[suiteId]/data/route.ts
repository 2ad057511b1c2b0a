import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { actorOf, audit } from "@/lib/auth/audit";
import { DomainError, readBodyBytes, streamWrite } from "@/lib/server/http";
import { importSuiteData } from "@/lib/suites/content-versions";
import { DATA_FILE_LIMITS, megabytes } from "@/lib/suites/data-limits";

/**
 * An admin imports a suite's data from files (e.g. the official DoFaiR CSVs) as multipart form data: a new content
 * version, or the same one again. Sizes are checked before anything is parsed — the upload as a whole from its
 * length, then each file — and every refusal says which limit, so a large file is answered, not dropped.
 */
export const POST = streamWrite<{ suiteId: string }>("content.import", async (req, { params, viewer }) => {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data")) throw new DomainError("unsupported_media_type", "send the files as multipart/form-data");
  const body = await readBodyBytes(
    req,
    DATA_FILE_LIMITS.maxUploadBytes,
    `more than ${megabytes(DATA_FILE_LIMITS.maxUploadBytes)} in all: at most ${DATA_FILE_LIMITS.maxFiles} files of ${megabytes(DATA_FILE_LIMITS.maxFileBytes)} each`,
  );
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": req.headers.get("content-type")! } }).formData();
  } catch {
    throw new DomainError("invalid", "the upload is not readable as form data");
  }
  const files = form.getAll("files").filter((f): f is File => typeof f === "object" && f !== null && f.size > 0);
  if (!files.length) throw new DomainError("invalid", "choose the files to import");
  if (files.length > DATA_FILE_LIMITS.maxFiles) throw new DomainError("invalid", `${files.length} files: at most ${DATA_FILE_LIMITS.maxFiles}`);
  const big = files.find((f) => f.size > DATA_FILE_LIMITS.maxFileBytes);
  if (big) throw new DomainError("too_large", `${big.name.slice(0, 200)}: more than ${megabytes(DATA_FILE_LIMITS.maxFileBytes)}`);
  const read = await Promise.all(files.map(async (f) => ({ name: f.name.slice(0, 200), text: await f.text() })));
  const r = await importSuiteData(db(), params.suiteId, read);
  await audit(db(), {
    ...actorOf(viewer),
    action: "content.import",
    targetType: "suite",
    targetId: params.suiteId,
    details: { version: r.version, sha256: r.sha256, created: r.created, files: read.map((f) => f.name) },
  });
  revalidatePath(`/benchmark/suites/${params.suiteId}`);
  return { version: r.version, created: r.created };
});
