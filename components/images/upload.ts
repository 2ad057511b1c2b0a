// Sending a checked selection: open an upload, stream each file to the server's disk (progress per file), then
// commit the batch once — the server checks every image again and stores all or nothing.
import type { ImportProblem } from "@/lib/images/import-names";
import type { Picked } from "./selection";

async function call<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const body = (await res.json().catch(() => ({}))) as T & { error?: string; problems?: ImportProblem[] };
  if (!res.ok) throw Object.assign(new Error(body.error ?? `HTTP ${res.status}`), { problems: body.problems });
  return body;
}

export interface CommitResult {
  runId: string;
  imported: number;
  skipped: ImportProblem[];
  mappedBy: string;
}

export async function uploadBatch(
  req: { model: string; suite: string; runId: string; runName: string; instrument: "faces" | "clip"; picked: Picked[] },
  onProgress: (p: { sent: number; total: number }) => void,
): Promise<CommitResult> {
  const { model, suite, runId, runName, instrument, picked } = req;
  const totalBytes = picked.reduce((a, p) => a + p.file.size, 0);
  const json = { "content-type": "application/json" };
  const { uploadId } = await call<{ uploadId: string }>("/api/imports", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ model, suite, runId: runId || null, runName: runName || null, instrument }),
  });
  onProgress({ sent: 0, total: totalBytes });
  let sent = 0;
  for (const p of picked) {
    await call(`/api/imports/${uploadId}/files?name=${encodeURIComponent(p.path)}`, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: p.file,
    });
    sent += p.file.size;
    onProgress({ sent, total: totalBytes });
  }
  return call<CommitResult>(`/api/imports/${uploadId}/commit`, {
    method: "POST",
    headers: json,
    body: "{}",
  });
}
