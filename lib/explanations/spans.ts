// An explanation cut into segments by its tagged spans, for highlighting (the queue, the explanations behind a number,
// report pages): each segment's text and the tags covering it. Client-safe and pure.
import type { ExplanationTag } from "./tags";

export interface Segment {
  start: number;
  end: number;
  text: string;
  tags: ExplanationTag[];
}

export function segments(text: string, spans: ReadonlyArray<{ tag: ExplanationTag; start: number; end: number }>): Segment[] {
  const cuts = new Set([0, text.length]);
  for (const s of spans) {
    cuts.add(Math.max(0, Math.min(text.length, s.start)));
    cuts.add(Math.max(0, Math.min(text.length, s.end)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [start, end] = [points[i], points[i + 1]];
    if (end <= start) continue;
    const tags = [...new Set(spans.filter((s) => s.start <= start && s.end >= end).map((s) => s.tag))];
    out.push({ start, end, text: text.slice(start, end), tags });
  }
  return out;
}

/** Tailwind classes per tag (one colour each, readable on white), shared by every page that highlights. */
export const TAG_CLASS: Record<ExplanationTag, string> = {
  representativeness: "bg-amber-100 underline decoration-amber-500 decoration-2",
  attribution: "bg-sky-100 underline decoration-sky-600 decoration-2",
  group: "bg-violet-100 underline decoration-violet-600 decoration-2",
  stereotype: "bg-rose-100 underline decoration-rose-600 decoration-2",
};
