// Whole-image readings (CLIP, for a suite whose paper measures that way): a labeller holding a lease posts, per image, the
// softmax of every text group of the run's suite (lib/faces/clip-texts.ts), with the vision tower and text file that
// made them. Stored raw in one transaction — the suite's rules (person check, thresholds, adjustments) run when the
// run is scored — and only from the lease's holder, only for runs launched with the CLIP instrument, only from the
// instrument a run is already read with.
import { z } from "zod";
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError } from "../../core/errors";
import { labelRuntimeSchema, modelRefSchema } from "../../faces/provenance";
import { findSuite } from "../../suites";
import { runSettled } from "../../core/settled";
import { emitIfLabellingDone } from "../webhooks/emit";
import { boundLease, distinctImageIds, leaseTokenSchema } from "./leases";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a sha256: 64 lowercase hex digits");
const probs = z
  .array(z.number().finite().min(0).max(1))
  .min(2)
  .max(64)
  .refine((p) => Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-3, "probabilities must sum to 1");

const readingResultsSchema = z.object({
  lease: leaseTokenSchema,
  /** the vision tower by name and sha256 of its file */
  model: modelRefSchema,
  /** the text-embedding file (sha256) and the weights its embeddings came from */
  texts: z.object({ sha256, weightsSha256: sha256 }),
  runtime: labelRuntimeSchema,
  results: z
    .array(z.object({ imageId: z.string().min(1).max(40), groups: z.record(z.string().max(40), probs) }))
    .min(1)
    .max(64),
});

/** Stores a labeller's readings; images it does not hold are refused and reported, never stored twice. */
export async function saveReadings(prisma: PrismaClient, input: unknown, account: string | null = null): Promise<{ saved: number; refused: string[] }> {
  const r = readingResultsSchema.parse(input);
  const owner = boundLease(r.lease, account);
  const ids = distinctImageIds(r.results);
  // Runs whose last image this batch labelled: their intervals and views are computed ahead once it commits.
  const settled: string[] = [];
  const out = await prisma.$transaction(async (tx) => {
    const held = await tx.image.findMany({
      where: { id: { in: ids }, labelStatus: "leased", leaseOwner: owner },
      select: { id: true, runId: true, run: { select: { suiteId: true, labelInstrument: true } } },
    });
    const ok = new Map(held.map((h) => [h.id, h]));
    for (const runId of new Set(held.map((h) => h.runId))) {
      const img = held.find((h) => h.runId === runId)!;
      if (!runId || img.run?.labelInstrument !== "clip") throw new DomainError("conflict", `image ${img.id} is not of a run read with CLIP`);
      // One run, one instrument: the same vision tower and text file for every image.
      // The weights the texts claim to come from are part of the instrument too: a reading claiming OpenAI's
      // checkpoint beside readings claiming another would mix instruments under one caption.
      const first = await tx.imageReading.findFirst({ where: { image: { runId } }, select: { modelVersion: true, textsVersion: true, weightsSha256: true } });
      if (first && (first.modelVersion !== r.model.sha256 || first.textsVersion !== r.texts.sha256 || first.weightsSha256 !== r.texts.weightsSha256))
        throw new DomainError(
          "conflict",
          `run ${runId} is read with vision tower ${first.modelVersion.slice(0, 12)}… and text file ${first.textsVersion.slice(0, 12)}… (texts from weights ${first.weightsSha256.slice(0, 12)}…); these come from ${r.model.sha256.slice(0, 12)}… and ${r.texts.sha256.slice(0, 12)}… (weights ${r.texts.weightsSha256.slice(0, 12)}…). One run is read by one instrument: use the same files.`,
        );
    }
    // Every group the run's suite reads, each with one probability per text, and nothing else.
    for (const res of r.results) {
      const img = ok.get(res.imageId);
      if (!img) continue;
      const groups = findSuite(img.run!.suiteId)?.clipGroups;
      if (!groups) throw new DomainError("conflict", `${img.run!.suiteId} has no CLIP instrument`);
      const names = Object.keys(groups);
      // Own keys only: `in` would take "constructor" or "toString" (the prototype's) for a group of the suite.
      const extra = Object.keys(res.groups).filter((g) => !Object.hasOwn(groups, g));
      const bad = names.filter((g) => !Object.hasOwn(res.groups, g) || res.groups[g].length !== groups[g].length);
      if (extra.length || bad.length)
        throw new z.ZodError([
          {
            code: "custom",
            path: ["results", res.imageId, "groups"],
            message: `expected the groups ${names.map((n) => `${n} (${groups[n].length})`).join(", ")}${extra.length ? `; unknown: ${extra.join(", ")}` : ""}${bad.length ? `; missing or wrong size: ${bad.join(", ")}` : ""}`,
            input: Object.keys(res.groups),
          },
        ]);
    }
    const rows = r.results
      .filter((x) => ok.has(x.imageId))
      .map((x) => ({
        imageId: x.imageId,
        instrument: "clip",
        model: r.model.model,
        modelVersion: r.model.sha256,
        textsVersion: r.texts.sha256,
        weightsSha256: r.texts.weightsSha256,
        labelRuntime: r.runtime,
        probsJson: JSON.stringify(x.groups),
      }));
    if (rows.length) {
      await tx.imageReading.createMany({ data: rows });
      await tx.image.updateMany({ where: { id: { in: rows.map((x) => x.imageId) } }, data: { labelStatus: "labelled", leaseOwner: null, leaseUntil: null } });
    }
    for (const runId of new Set(held.map((h) => h.runId).filter((x): x is string => !!x))) if (await emitIfLabellingDone(tx, runId)) settled.push(runId);
    return { saved: rows.length, refused: ids.filter((id) => !ok.has(id)) };
  });
  for (const id of settled) void runSettled(prisma, id);
  return out;
}
