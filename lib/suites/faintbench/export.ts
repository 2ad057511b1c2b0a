// A FAIntbench run as JSONL: one line per face with its prompt's coordinates and its gender, race and age (and, for
// relation prompts, the side it was assigned to, or null when the image has not exactly two faces); an image
// without a face is one line with a null face. A run read with CLIP has one line per image instead: the instrument,
// what read it, the raw per-group probabilities and the release's reading of them (null when the person check drops
// the image). Streamed a page of images at a time.
import type { SuiteContext } from "../types";
import { parsePinned } from "./content";
import { assignSides } from "./labels";
import { imageRecords } from "./records";
import { readingFromGroups } from "./clip-instrument";

export async function* faintExportLines(
  ctx: SuiteContext,
  req: { runId: string; labels: "model" | "reviewed" },
): AsyncGenerator<Array<Record<string, unknown>>> {
  const run = await ctx.prisma.run.findUniqueOrThrow({
    where: { id: req.runId },
    select: { suiteVersion: true, benchmarkVersion: { select: { contentJson: true } } },
  });
  const prompts = new Map(parsePinned(run.benchmarkVersion.contentJson).prompts.map((p) => [p.id, p]));
  for await (const page of imageRecords(ctx.prisma, req.runId, req.labels)) {
    const lines: Array<Record<string, unknown>> = [];
    for (const im of page) {
      const p = prompts.get(im.promptId);
      const base = {
        suite: "faintbench",
        suiteVersion: run.suiteVersion,
        run: req.runId,
        model: im.model,
        prompt: im.promptId,
        text: p?.text ?? null,
        visibility: p?.visibility ?? null,
        acquired: p?.acquired ?? null,
        item: p?.item ?? null,
        requested: p?.visibility === "explicit" ? p.persons.map((x) => ({ side: x.side, ...x.requested })) : null,
        image: im.imageId,
        labels: req.labels,
        instrument: im.clip ? "clip" : "faces",
      };
      if (im.clip) {
        const reading = readingFromGroups(im.clip.groups, p?.persons.length === 2 ? "relation" : "one");
        lines.push({ ...base, clip: { ...im.clip.by, groups: im.clip.groups }, reading });
        continue;
      }
      if (!im.faces.length) lines.push({ ...base, face: null, side: null, gender: null, race: null, age: null, reviewed: null });
      const sides = p?.persons.length === 2 ? assignSides(im.faces) : null;
      for (const f of im.faces) {
        const side = p?.persons.length === 2 ? (sides ? (sides.left === f ? "left" : "right") : null) : "one";
        lines.push({
          ...base,
          face: { id: f.faceId, box: f.box, ...(f.labelledBy ?? { classifier: null, chip: null, detector: null, runtime: null }) },
          side,
          ...f.labels,
          reviewed: f.human,
        });
      }
    }
    yield lines;
  }
}
