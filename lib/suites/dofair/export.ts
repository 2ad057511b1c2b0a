// A DoFaiR run as JSONL: one line per face with the entry's truth and the prompt as sent (a helper's answer included) from the content the run pinned, an image without
// a face as one line with a null face (so excluded images stay visible). Streamed a page of images at a time.
import type { SuiteContext } from "../types";
import { parsePinned } from "./content";
import { imageRecords } from "./records";
import { composeWithHelper } from "../types";

export async function* dofairExportLines(
  ctx: SuiteContext,
  req: { runId: string; labels: "model" | "reviewed" },
): AsyncGenerator<Array<Record<string, unknown>>> {
  const run = await ctx.prisma.run.findUniqueOrThrow({
    where: { id: req.runId },
    select: { suiteVersion: true, benchmarkVersion: { select: { contentJson: true } } },
  });
  const entries = new Map(parsePinned(run.benchmarkVersion.contentJson).entries.map((e) => [e.id, e]));
  for await (const page of imageRecords(ctx.prisma, req.runId, req.labels)) {
    const lines: Array<Record<string, unknown>> = [];
    for (const im of page) {
      const e = entries.get(im.entryId);
      const base = {
        suite: "dofair",
        suiteVersion: run.suiteVersion,
        run: req.runId,
        model: im.model,
        entry: im.entryId,
        event: e?.event ?? null,
        dimension: im.dimension,
        method: im.method,
        augmentation: im.augmentation,
        prompt: im.prompt,
        // CoT reasoning or FAI guidance, and the prompt the image model was sent (prompt + " " + answer)
        helperAnswer: im.helperAnswer,
        promptSent: im.prompt !== null && im.helperAnswer !== null ? composeWithHelper(im.prompt, im.helperAnswer) : im.prompt,
        dominant: e?.dominant ?? null,
        involved: e?.involved ?? null,
        image: im.imageId,
        labels: req.labels,
      };
      if (!im.faces.length) lines.push({ ...base, face: null, label: null, labelSource: null });
      for (const f of im.faces)
        lines.push({
          ...base,
          face: { id: f.faceId, box: f.box, ...(f.labelledBy ?? { classifier: null, chip: null, detector: null, runtime: null }) },
          label: f.label,
          labelSource: f.source,
        });
    }
    yield lines;
  }
}
