"use client";
// An explanation with its tagged spans highlighted (each tag its colour, its name on hover and for screen readers).
import { forwardRef } from "react";
import { segments, TAG_CLASS } from "@/lib/explanations/spans";
import { TAG_MEANING, type TagSpan } from "@/lib/explanations/tags";
import { cn } from "@/components/ui/cn";

export const ExplanationText = forwardRef<HTMLDivElement, { text: string; spans: readonly TagSpan[]; className?: string }>(function ExplanationText(
  { text, spans, className },
  ref,
) {
  return (
    <div
      ref={ref}
      data-testid="explanation"
      className={cn("whitespace-pre-wrap rounded border border-slate-200 bg-white p-3 text-sm leading-relaxed", className)}
    >
      {segments(text, spans).map((s) =>
        s.tags.length ? (
          <mark
            key={s.start}
            className={cn("rounded-sm text-inherit", TAG_CLASS[s.tags[0]])}
            title={s.tags.map((t) => TAG_MEANING[t].label).join(", ")}
            data-tags={s.tags.join(" ")}
          >
            {s.text}
          </mark>
        ) : (
          <span key={s.start}>{s.text}</span>
        ),
      )}
    </div>
  );
});
