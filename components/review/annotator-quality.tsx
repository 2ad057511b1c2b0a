"use client";
// Annotators measured (Review → Agreement): each one's accuracy on gold faces and agreement with the others, with
// Wilson 95 % intervals, and — for admins — leaving an annotator's votes out of every consensus (asked for a reason,
// audited) or bringing them back.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import type { Rate } from "@/lib/review/annotator-quality";
import type { ReviewKind } from "@/lib/review/kinds";

export interface AnnotatorRow {
  annotator: string;
  name: string;
  gold: Rate;
  peers: Rate;
  excluded: { by: string; reason: string; at: string } | null;
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;

function RateCell({ r, what }: { r: Rate; what: string }) {
  if (!r.n || r.rate === null) return <span className="text-slate-400">–</span>;
  return (
    <span title={`${r.agree} of ${r.n} ${what}; 95 % Wilson interval`}>
      <span className="font-medium tabular-nums">{pct(r.rate)}</span>{" "}
      <span className="text-xs tabular-nums text-slate-500">
        [{pct(r.lo!)}, {pct(r.hi!)}] · n {r.n}
      </span>
    </span>
  );
}

async function putExclusion(body: Record<string, unknown>) {
  const res = await fetch("/api/review/exclusions", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(((await res.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP ${res.status}`);
}

function ExcludeButton({ row, onDone }: { row: AnnotatorRow; onDone: (error?: string) => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={`Exclude ${row.name}'s votes?`}
      description="Their labels stay stored and shown, marked; every consensus — scores, exports, the review queue — is read without them until you restore them. Recorded in the activity log."
      trigger={
        <button type="button" className="rounded px-2 py-0.5 text-rose-700 ring-1 ring-slate-300 hover:bg-slate-50">
          Exclude
        </button>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => {
            try {
              await putExclusion({ annotator: row.annotator, excluded: true, reason });
              setOpen(false);
              onDone();
            } catch (err) {
              setError((err as Error).message);
            }
          });
        }}
        className="space-y-3"
      >
        <Field label="Reason" hint="Kept with the exclusion and in the activity log." error={error}>
          <textarea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            minLength={3}
            maxLength={500}
            rows={3}
            className="rounded border border-slate-300 p-2 text-sm"
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={pending || reason.trim().length < 3}>
            Exclude votes
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** `kind`: what the reviewers read (faces by default; explanations: tags, on the run's Explanations page). */
export function AnnotatorQuality({
  rows,
  gold,
  canManage,
  kind = "faces",
}: {
  rows: AnnotatorRow[];
  /** gold items in scope (faces) */
  gold?: number;
  canManage: boolean;
  kind?: ReviewKind;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [, start] = useTransition();
  const done = (e?: string) => {
    setError(e ?? null);
    router.refresh();
  };
  return (
    <>
      {error && <Alert compact>{error}</Alert>}
      <Table data-testid="annotator-quality">
        <thead>
          <tr>
            <Th>{kind === "faces" ? "Annotator" : "Reviewer"}</Th>
            <Th>Accuracy on gold</Th>
            <Th>Agreement with others</Th>
            <Th>Votes</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.annotator} data-annotator={r.name}>
              <Td>{r.name}</Td>
              <Td>
                <RateCell r={r.gold} what={kind === "faces" ? "labels match the gold label" : "tag decisions match the gold reading"} />
              </Td>
              <Td>
                <RateCell
                  r={r.peers}
                  what={kind === "faces" ? "labels match the other annotators' majority" : "tag decisions match the other reviewers' majority"}
                />
              </Td>
              <Td className="text-xs">
                {r.excluded ? (
                  <span className="block" title={`excluded ${new Date(r.excluded.at).toLocaleString("en-US")}`}>
                    <span className="rounded bg-rose-100 px-1 text-rose-800">excluded</span> {r.excluded.reason}
                  </span>
                ) : (
                  <span className="text-slate-600">counted</span>
                )}
                {canManage &&
                  (r.excluded ? (
                    <ConfirmDialog
                      title={`Count ${r.name}'s votes again?`}
                      description="Every consensus is read with their labels again. Recorded in the activity log."
                      confirmLabel="Restore votes"
                      cancelLabel="Keep them out"
                      onConfirm={() =>
                        start(async () => {
                          try {
                            await putExclusion({ annotator: r.annotator, excluded: false });
                            done();
                          } catch (err) {
                            done((err as Error).message);
                          }
                        })
                      }
                      trigger={
                        <button type="button" className="mt-1 rounded px-2 py-0.5 ring-1 ring-slate-300 hover:bg-slate-50">
                          Restore
                        </button>
                      }
                    />
                  ) : (
                    <span className="ml-2">
                      <ExcludeButton row={r} onDone={done} />
                    </span>
                  ))}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {kind === "faces" ? (
        <p className="mt-2 text-xs text-slate-500">
          {gold ?? 0} gold face{gold === 1 ? "" : "s"} in this scope. Accuracy: labels matching an admin&apos;s gold label; agreement: labels matching the
          strict majority of the face&apos;s other annotators (excluded annotators are nobody&apos;s peer). 95 % Wilson intervals; n counts face × attribute
          comparisons.
        </p>
      ) : (
        <p className="mt-2 text-xs text-slate-500">
          Accuracy: tags present or absent as in an admin&apos;s gold reading; agreement: as the strict majority of the explanation&apos;s other reviewers
          (excluded reviewers are nobody&apos;s peer and count in no prevalence). 95 % Wilson intervals; n counts explanation × tag comparisons. An exclusion
          applies to every review kind.
        </p>
      )}
    </>
  );
}
