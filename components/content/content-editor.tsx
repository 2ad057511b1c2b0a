"use client";

// Writing a content set in the browser: content.json (typed, pasted, loaded from a file, or a copy of a stored version)
// and the optional CSV tables. "Check" asks the server for a dry run — every problem by file, row and field, the diff
// against the set's latest version, the prompts for a seed — and "Save as draft" stores exactly what was checked.
// Sizes are checked here before reading a file, and again by the server.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";
import { CONTENT_LIMITS } from "@/lib/content/limits";
import type { ContentDiff } from "@/lib/content/diff";
import { ContentDiffView, type PromptPreview } from "./diff-view";

type Problem = { name: string; message: string };
type Checked = { diff: ContentDiff | null; against: string | null; prompts: PromptPreview; existing: string | null };
const TABLES = ["statistics.csv", "scenarios.csv"] as const;

async function readFile(file: File): Promise<string> {
  if (file.size > CONTENT_LIMITS.fileBytes) throw new Error(`${file.name} is larger than ${CONTENT_LIMITS.fileBytes / 1024 / 1024} MiB`);
  return file.text();
}

export function ContentEditor({ initialJson, copyOf }: { initialJson: string | null; copyOf: string | null }) {
  const router = useRouter();
  const [json, setJson] = useState(initialJson ?? "");
  const [tables, setTables] = useState<Partial<Record<(typeof TABLES)[number], string>>>({});
  const [checked, setChecked] = useState<{ files: string; result: Checked } | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<"check" | "save" | null>(null);
  const files = () => ({ "content.json": json, ...tables });
  const filesKey = JSON.stringify(files());
  const send = async (dryRun: boolean) => {
    setPending(dryRun ? "check" : "save");
    setError(null);
    setProblems([]);
    try {
      const res = await fetch("/api/v1/content-sets", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ files: files(), dryRun }),
      });
      const body = (await res.json().catch(() => ({}))) as {
        error?: string;
        problems?: Problem[];
        version?: { setId: string; version: string } | null;
        created?: boolean;
        diff?: ContentDiff | null;
        against?: string | null;
        prompts?: PromptPreview;
      };
      if (!res.ok) {
        setChecked(null);
        setProblems(body.problems ?? []);
        return setError(body.error ?? `the server refused it (HTTP ${res.status})`);
      }
      if (!dryRun && body.version) return router.push(`/benchmark/content/${encodeURIComponent(`${body.version.setId}@${body.version.version}`)}`);
      const existing = body.version ? `${body.version.setId}@${body.version.version}` : null;
      setChecked({ files: filesKey, result: { diff: body.diff ?? null, against: body.against ?? null, prompts: body.prompts!, existing } });
    } catch {
      setError("The server could not be reached.");
    } finally {
      setPending(null);
    }
  };
  const upToDate = checked?.files === filesKey;
  return (
    <div className="space-y-4">
      {copyOf && (
        <Alert tone="info">
          A copy of {copyOf} with its version raised: edit it, check it, and save it as a new draft. {copyOf} itself never changes.
        </Alert>
      )}
      <div className="grid gap-3 text-sm md:grid-cols-3">
        <label className="flex flex-col gap-1">
          content.json from a file
          <Input
            type="file"
            accept=".json,application/json"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (!f) return;
              try {
                setJson(await readFile(f));
              } catch (err) {
                setError((err as Error).message);
              }
            }}
          />
        </label>
        {TABLES.map((name) => (
          <label key={name} className="flex flex-col gap-1">
            {name} (optional)
            <Input
              type="file"
              accept=".csv,text/csv"
              aria-label={name}
              onChange={async (e) => {
                const f = e.target.files?.[0];
                try {
                  const text = f ? await readFile(f) : undefined;
                  setTables((t) => ({ ...t, [name]: text }));
                } catch (err) {
                  setError((err as Error).message);
                }
              }}
            />
          </label>
        ))}
      </div>
      <label className="flex flex-col gap-1 text-sm">
        content.json
        <textarea
          value={json}
          onChange={(e) => setJson(e.target.value)}
          spellCheck={false}
          rows={18}
          aria-label="content.json"
          className="w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs"
          placeholder='{ "id": "my-set", "title": "…", "version": "1.0.0", "language": "de", … }'
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => send(true)} disabled={pending !== null || !json.trim()}>
          {pending === "check" ? "Checking…" : "Check"}
        </Button>
        <Button type="button" variant="secondary" onClick={() => send(false)} disabled={pending !== null || !upToDate || !!checked?.result.existing}>
          {pending === "save" ? "Saving…" : "Save as draft"}
        </Button>
        {!upToDate && checked && <span className="self-center text-xs text-slate-500">changed since the check: check again before saving</span>}
      </div>
      {error && (
        <Alert>
          <p>{error}</p>
          {problems.length > 0 && (
            <ul className="mt-1 list-disc pl-5" data-testid="content-problems">
              {problems.map((p, i) => (
                <li key={i}>
                  <code>{p.name}</code>: {p.message}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {checked && upToDate && <ContentDiffView {...checked.result} />}
    </div>
  );
}
