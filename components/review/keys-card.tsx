"use client";

import { Card } from "@/components/ui/card";
import { Kbd } from "@/components/ui/kbd";
import type { LabelAttribute } from "@/lib/review/label-set";

/** The keys of the review page; the labelling keys are those of the focused face's suite. */
export function KeysCard({
  attributes,
  show,
  onToggle,
  saving,
  undoDepth,
}: {
  attributes: readonly LabelAttribute[];
  show: boolean;
  onToggle: () => void;
  saving: boolean;
  undoDepth: number;
}) {
  return (
    <Card
      title="Keys"
      actions={
        <button type="button" className="text-xs text-indigo-700 underline" onClick={onToggle}>
          {show ? "hide" : "show"}
        </button>
      }
    >
      {show && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-xs" data-testid="cheat-sheet">
          <dt>
            <Kbd>A</Kbd> <Kbd>Enter</Kbd>
          </dt>
          <dd>accept the prediction, next</dd>
          {attributes.map((a) => (
            <div key={a.id} className="contents" data-testid={`keys-${a.id}`}>
              <dt>
                {a.keys.length > 2 ? (
                  <>
                    <Kbd>{a.keys[0].toUpperCase()}</Kbd>–<Kbd>{a.keys.at(-1)!.toUpperCase()}</Kbd>
                  </>
                ) : (
                  a.keys.map((k) => <Kbd key={k}>{k.toUpperCase()}</Kbd>)
                )}
              </dt>
              <dd>
                {a.label}: {a.classes.map((c, i) => `${a.keys[i].toUpperCase()} ${c.replace("_", "/")}`).join(" · ")}
              </dd>
            </div>
          ))}
          <dt>
            <Kbd>X</Kbd>
          </dt>
          <dd>not a face / not a person, next</dd>
          <dt>
            <Kbd>U</Kbd> <Kbd>Ctrl Z</Kbd>
          </dt>
          <dd>undo</dd>
          <dt>
            <Kbd>←↑→↓</Kbd>
          </dt>
          <dd>move</dd>
          <dt>
            <Kbd>Space</Kbd>
          </dt>
          <dd>
            select; <Kbd>Ctrl A</Kbd> all
          </dd>
          <dt>
            <Kbd>Shift A</Kbd>
          </dt>
          <dd>accept the selection</dd>
          <dt>
            <Kbd>O</Kbd>
          </dt>
          <dd>whole image: add / delete boxes</dd>
          <dt>
            <Kbd>Del</Kbd>
          </dt>
          <dd>delete (restore) the detection</dd>
          <dt>
            <Kbd>N</Kbd> <Kbd>P</Kbd>
          </dt>
          <dd>next / previous page</dd>
          <dt>
            <Kbd>?</Kbd>
          </dt>
          <dd>show / hide these keys</dd>
        </dl>
      )}
      <p className="mt-2 text-xs text-slate-500" aria-live="polite">
        {saving ? "Saving…" : "All changes saved."} {undoDepth ? `${undoDepth} to undo.` : ""}
      </p>
    </Card>
  );
}
