"use client";
// The explanation review queue (issue #67): one explanation at a time — the scenario, the options, the chosen answer
// and the reasoning — read for the cognitive errors it shows. Keyboard first: select the words that show an error and
// press its key (1–4), 0 for "shows none of these", Backspace removes the last tag, Enter saves and moves on, j/k move
// without saving, n writes a note. Blind: only the reviewer's own readings are shown.
import { useCallback, useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { EXPLANATION_TAGS, TAG_MEANING, type ExplanationTag, type TagSpan } from "@/lib/explanations/tags";
import type { QueueItem } from "@/lib/features/explanations/readings";
import { TAG_CLASS } from "@/lib/explanations/spans";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { Kbd } from "@/components/ui/kbd";
import { cn } from "@/components/ui/cn";
import { ExplanationText } from "./explanation-text";

interface QueuePage {
  items: QueueItem[];
  left: number;
  assigned: number;
}

async function send<T>(url: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(url, { method, headers: body ? { "content-type": "application/json" } : undefined, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(json.error ?? `${method} ${url}: HTTP ${res.status}`);
  return json as T;
}

/** The selection's characters within `root`'s text, or null when nothing (or something outside it) is selected. */
function selectedSpan(root: HTMLElement | null): { start: number; end: number } | null {
  const sel = typeof window === "undefined" ? null : window.getSelection();
  if (!root || !sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const before = document.createRange();
  before.selectNodeContents(root);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  const end = start + range.toString().length;
  return end > start ? { start, end } : null;
}

export function ExplanationQueue({ assignmentId }: { assignmentId: string }) {
  const [state, setState] = useState<"unreviewed" | "reviewed">("unreviewed");
  const [offset, setOffset] = useState(0);
  const [index, setIndex] = useState(0);
  const [saved, setSaved] = useState<string | null>(null);
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ["explanation-queue", assignmentId, state, offset],
    queryFn: () => send<QueuePage>(`/api/v1/explanations/queue?${new URLSearchParams({ assignmentId, state, offset: String(offset), pageSize: "10" })}`, "GET"),
  });
  const items = q.data?.items ?? [];
  const at = Math.min(index, Math.max(0, items.length - 1));
  const item: QueueItem | undefined = items[at];
  const move = useCallback((delta: number) => setIndex((i) => Math.max(0, Math.min(i + delta, items.length - 1))), [items.length]);
  const onSaved = useCallback(
    async (text: string) => {
      setSaved(text);
      if (state === "unreviewed") {
        await client.invalidateQueries({ queryKey: ["explanation-queue", assignmentId] });
        setIndex(0);
      } else move(1);
    },
    [state, client, assignmentId, move],
  );
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {(["unreviewed", "reviewed"] as const).map((s) => (
          <Button
            key={s}
            variant={state === s ? "primary" : "secondary"}
            aria-pressed={state === s}
            onClick={() => {
              setState(s);
              setOffset(0);
              setIndex(0);
            }}
          >
            {s === "unreviewed" ? "To review" : "My readings"}
          </Button>
        ))}
        <span className="text-slate-600" data-testid="queue-left">
          {q.data ? (state === "unreviewed" ? `${q.data.left} of ${q.data.assigned} left to review` : `${q.data.left} read`) : "loading…"}
        </span>
        {state === "reviewed" && q.data && q.data.left > offset + 10 && (
          <Button variant="ghost" onClick={() => (setOffset(offset + 10), setIndex(0))}>
            Older readings →
          </Button>
        )}
        {saved && (
          <span role="status" className="text-emerald-800" data-testid="saved">
            {saved}
          </span>
        )}
      </div>
      {q.error && <Alert>{String((q.error as Error).message)}</Alert>}
      {q.data && !item && (
        <Alert tone="success" title={state === "unreviewed" ? "All done" : "Nothing read yet"}>
          {state === "unreviewed" ? "Every explanation dealt to you has your reading. Thank you." : "Your readings appear here once you save one."}
        </Alert>
      )}
      {item && (
        <ReadingEditor
          key={`${item.outcomeId}|${item.mine?.at ?? ""}`}
          item={item}
          onSaved={onSaved}
          move={move}
          first={at === 0}
          last={at >= items.length - 1}
        />
      )}
    </div>
  );
}

/** One explanation and the reviewer's reading of it (state starts from their saved reading: a new key, a new editor). */
function ReadingEditor({
  item,
  onSaved,
  move,
  first,
  last,
}: {
  item: QueueItem;
  onSaved: (text: string) => Promise<void>;
  move: (delta: number) => void;
  first: boolean;
  last: boolean;
}) {
  const [tags, setTags] = useState<TagSpan[]>(item.mine?.tags ?? []);
  const [none, setNone] = useState(!!item.mine && item.mine.tags.length === 0);
  const [note, setNote] = useState(item.mine?.note ?? "");
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const textRef = useRef<HTMLDivElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);

  const tag = useCallback((t: ExplanationTag) => {
    const span = selectedSpan(textRef.current);
    if (!span) return setMessage(`Select the words that show ${TAG_MEANING[t].label.toLowerCase()} first, then press ${TAG_MEANING[t].key}.`);
    setTags((old) => [...old.filter((o) => !(o.tag === t && o.start === span.start && o.end === span.end)), { tag: t, ...span }]);
    setNone(false);
    setMessage(null);
    window.getSelection()?.removeAllRanges();
  }, []);

  const save = useCallback(async () => {
    if (saving) return;
    if (!tags.length && !none) return setMessage("Tag an error (select its words, press 1–4) or say it shows none (0) before saving.");
    setSaving(true);
    try {
      await send("/api/v1/explanations/readings", "POST", { outcomeId: item.outcomeId, reading: { tags, ...(note.trim() ? { note: note.trim() } : {}) } });
      await onSaved(`Saved: ${tags.length ? [...new Set(tags.map((t) => TAG_MEANING[t.tag].label))].join(", ") : "shows none"}.`);
    } catch (e) {
      setMessage(e instanceof Error ? e.message : String(e));
      setSaving(false);
    }
  }, [item.outcomeId, saving, tags, none, note, onSaved]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) {
        if (e.key === "Escape") t.blur();
        return;
      }
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const byKey = EXPLANATION_TAGS.find((x) => TAG_MEANING[x].key === e.key);
      if (byKey) tag(byKey);
      else if (e.key === "0") {
        setTags([]);
        setNone(true);
      } else if (e.key === "Backspace") setTags((old) => old.slice(0, -1));
      else if (e.key === "Enter") void save();
      else if (e.key === "j") move(1);
      else if (e.key === "k") move(-1);
      else if (e.key === "n") noteRef.current?.focus();
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [tag, save, move]);

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_18rem]">
      <article className="space-y-3" aria-label="Explanation" data-testid="explanation-item" data-outcome={item.outcomeId}>
        <details className="rounded border border-slate-200 bg-slate-50 p-2 text-sm" open>
          <summary className="cursor-pointer font-medium">
            The question ({item.statisticId.replace(/-/g, " ")}, {item.context ?? "objective"} context)
          </summary>
          <p className="mt-2 whitespace-pre-wrap text-slate-700">{item.prompt}</p>
        </details>
        <p className="text-sm">
          Chose <strong data-testid="chosen">{item.chosen ?? "—"}</strong>
          {item.chosenGroup.gender || item.chosenGroup.race ? ` (${[item.chosenGroup.race, item.chosenGroup.gender].filter(Boolean).join(", ")})` : ""}
        </p>
        <ExplanationText ref={textRef} text={item.explanation} spans={tags} />
        {message && (
          <Alert tone="error" compact>
            {message}
          </Alert>
        )}
        <ul className="space-y-1 text-sm" aria-label="Your tags">
          {none && <li data-testid="tag-none">Shows none of these errors.</li>}
          {tags.map((t, i) => (
            <li key={`${t.tag}-${t.start}-${t.end}`} className="flex items-start gap-2" data-testid="my-tag">
              <span className={cn("rounded px-1", TAG_CLASS[t.tag])}>{TAG_MEANING[t.tag].label}</span>
              <q className="flex-1 text-slate-700">{item.explanation.slice(t.start, t.end)}</q>
              <button type="button" className="text-xs text-rose-700 underline" onClick={() => setTags((old) => old.filter((_, j) => j !== i))}>
                remove
              </button>
            </li>
          ))}
        </ul>
        <label className="block text-sm">
          Note (optional)
          <textarea
            ref={noteRef}
            value={note}
            maxLength={2000}
            onChange={(e) => setNote(e.target.value)}
            className="mt-1 block w-full rounded border border-slate-300 p-2"
            rows={2}
          />
        </label>
        <div className="flex gap-2">
          <Button onClick={() => void save()} disabled={saving}>
            {saving ? "Saving…" : "Save and next"}
          </Button>
          <Button variant="secondary" onClick={() => move(-1)} disabled={first}>
            Previous
          </Button>
          <Button variant="secondary" onClick={() => move(1)} disabled={last}>
            Skip
          </Button>
        </div>
      </article>
      <aside className="space-y-3 text-sm" aria-label="Tags and keys">
        <div className="space-y-2 rounded border border-slate-200 p-3">
          <p className="font-medium">Select the words, then press</p>
          {EXPLANATION_TAGS.map((t) => (
            <button
              key={t}
              type="button"
              className="block w-full rounded p-1 text-left hover:bg-slate-50"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => tag(t)}
            >
              <Kbd>{TAG_MEANING[t].key}</Kbd> <span className={cn("rounded px-1", TAG_CLASS[t])}>{TAG_MEANING[t].label}</span>
              <span className="mt-0.5 block text-xs text-slate-600">{TAG_MEANING[t].means}</span>
            </button>
          ))}
          <button type="button" className="block w-full rounded p-1 text-left hover:bg-slate-50" onClick={() => (setTags([]), setNone(true))}>
            <Kbd>0</Kbd> shows none of these
          </button>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-1 text-xs text-slate-600">
          <dt>
            <Kbd>Enter</Kbd>
          </dt>
          <dd>save, next</dd>
          <dt>
            <Kbd>Backspace</Kbd>
          </dt>
          <dd>remove the last tag</dd>
          <dt>
            <Kbd>j</Kbd> <Kbd>k</Kbd>
          </dt>
          <dd>next / previous without saving</dd>
          <dt>
            <Kbd>n</Kbd>
          </dt>
          <dd>write a note (Esc leaves it)</dd>
        </dl>
      </aside>
    </div>
  );
}
