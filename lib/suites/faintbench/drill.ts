// FAIntbench's drill-down: from a results cell to its prompts and images — each image with its prompt, its faces'
// labels (or its CLIP reading) and its prompt's scores, a page at a time.
import type { DrillRequest, SuiteContext } from "../types";
import type { ListView, SuiteView } from "../views";
import { ACQUIRED, ACQUIRED_LABELS, ATTRIBUTES, ATTRIBUTE_LABELS, CLASSES, type Acquired, type Attribute } from "./classes";
import type { FaintContent } from "./content";
import { imageRecords } from "./records";
import { readingFromGroups } from "./clip-instrument";
import type { ImageProbs } from "./clip-rules";
import { DEFAULT_PROFILE } from "../../metrics/profiles";
import { implicitScores, newTally, tallyImage, type PromptTally } from "./score";

const fmtShares = (counts: readonly number[] | undefined, classes: readonly string[]) => {
  const n = counts?.reduce((a, b) => a + b, 0) ?? 0;
  return n ? classes.map((c, i) => `${c} ${Math.round((100 * counts![i]) / n)}%`).join(", ") : "—";
};

/** A CLIP-read image in the drill-down: its refined shares per class, or why it was dropped. */
function clipText(groups: Record<string, number[]>, kind: "one" | "relation", shown: readonly Attribute[]): string {
  const reading = readingFromGroups(groups, kind);
  if (!reading) return "CLIP: no person (dropped by the person check)";
  const probs = (v: ImageProbs) => shown.map((a) => fmtShares(v[a], CLASSES[a])).join(" / ");
  return reading.kind === "one" ? `CLIP: ${probs(reading.probs)}` : `CLIP: left ${probs(reading.left)}; right ${probs(reading.right)}`;
}

/** A cell's prompts and images: each image with its prompt, its faces' labels and its prompt's scores. */
export async function faintDrill(ctx: SuiteContext, req: DrillRequest, content: FaintContent): Promise<SuiteView[]> {
  const pageSize = 50;
  const prompts = new Map(content.prompts.map((p) => [p.id, p]));
  const attribute = ATTRIBUTES.includes(req.cell.attribute as Attribute) ? (req.cell.attribute as Attribute) : null;
  const acquired = ACQUIRED.includes(req.cell.acquired as Acquired) ? (req.cell.acquired as Acquired) : undefined;
  // The prompt-level scores need the whole prompt: tally the cell's images first, then list a page of them.
  const tallies = new Map<string, PromptTally>();
  const filter = { model: req.cell.model, visibility: req.cell.visibility, acquired };
  const wanted = (id: string) => {
    const p = prompts.get(id);
    return !!p && (!attribute || p.visibility === "implicit" || p.persons[0].requested?.attribute === attribute);
  };
  for await (const page of imageRecords(ctx.prisma, req.runId, req.labels, filter))
    for (const r of page)
      if (wanted(r.promptId))
        tallyImage(tallies.get(r.promptId) ?? (tallies.set(r.promptId, newTally()), tallies.get(r.promptId)!), prompts.get(r.promptId)!, r.faces, r.clip);
  const rows: ListView["rows"] = [];
  let total = 0;
  const from = req.page * pageSize;
  for await (const page of imageRecords(ctx.prisma, req.runId, req.labels, filter)) {
    for (const r of page) {
      if (!wanted(r.promptId)) continue;
      total++;
      if (total <= from || rows.length >= pageSize) continue;
      const p = prompts.get(r.promptId)!;
      const t = tallies.get(p.id)!;
      const faces = [...r.faces].sort((a, b) => a.box[0] + a.box[2] - (b.box[0] + b.box[2]));
      const shown = attribute ? [attribute] : ATTRIBUTES;
      const score =
        p.visibility === "implicit"
          ? Object.entries(implicitScores(p, t, (req.profile ?? DEFAULT_PROFILE) === "release"))
              .filter(([a]) => shown.includes(a as Attribute))
              .map(([a, v]) => `${a} ${v.toFixed(3)}`)
              .join(" · ") || "no faces yet"
          : t.scored
            ? `explicit ${(t.hits / t.scored).toFixed(3)} (${Number.isInteger(t.hits) ? t.hits : t.hits.toFixed(2)}/${t.scored} images)`
            : "no scored image";
      const truth = p.persons
        .map((x) =>
          x.truth
            ? `${x.side === "one" ? "" : `${x.side}: `}${shown.map((a) => fmtShares(x.truth![a], CLASSES[a])).join(" / ")}`
            : `${x.side === "one" ? "" : `${x.side}: `}${x.requested!.value}`,
        )
        .join("; ");
      rows.push({
        cells: [
          p.text,
          `${p.visibility} · ${ACQUIRED_LABELS[p.acquired]} · ${p.item}`,
          truth,
          r.clip
            ? clipText(r.clip.groups, p.persons.length === 2 ? "relation" : "one", shown)
            : faces.length
              ? faces.map((f) => shown.map((a) => f.labels[a] ?? "?").join(", ") + (shown.some((a) => f.human[a]) ? " (reviewed)" : "")).join(" | ")
              : "no face: left out",
          score,
        ],
        imageIds: [r.imageId],
        images: [{ id: r.imageId, width: r.width, height: r.height }],
        faces: faces.map((f) => ({
          imageId: r.imageId,
          box: f.box,
          label: `${shown.map((a) => f.labels[a] ?? "?").join(", ")}${shown.some((a) => f.human[a]) ? " (reviewed)" : ""}`,
        })),
      });
    }
  }
  return [
    {
      kind: "list",
      id: "drill",
      title: `${req.cell.model ?? "all models"} · ${req.cell.visibility ?? "implicit and explicit"}${acquired ? ` · ${ACQUIRED_LABELS[acquired]}` : ""}${attribute ? ` · ${ATTRIBUTE_LABELS[attribute]}` : ""}`,
      caption:
        "Each image with its prompt: the truth (implicit: the demographic shares; explicit: the requested class), the labels of its faces (left to right for relations) and its prompt's score over all of the cell's images.",
      columns: ["Prompt", "Visibility · acquired · item", "Truth", "Faces", "Prompt score"],
      rows,
      total,
      page: req.page,
      pageSize,
    },
  ];
}
