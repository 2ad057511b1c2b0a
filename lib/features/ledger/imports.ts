// An import's images, signed and logged as they are committed (lib/evidence/imports.ts): one batch per import, in
// the transaction that writes its image rows — so there is never an imported image the log has not seen, and the
// batches a bundle carries are the import's plan. Server-only.
import type { PrismaClient } from "../../../generated/prisma/client";
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from "../../evidence/dsse";
import { importStatementFor, type ImportedImage } from "../../evidence/imports";
import { appendEntry } from "./log";
import { signingKey } from "./keys";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** Appends the next batch of `runId`'s import (its images by hash and prompt), signed, inside the caller's transaction. */
export async function appendImportBatch(
  tx: Tx,
  b: { runId: string; model: string; images: ImportedImage[]; at: Date },
): Promise<{ index: number; batch: number }> {
  const batch = (await tx.logEntry.count({ where: { runId: b.runId, kind: "import" } })) + 1;
  const statement = importStatementFor({ run: { id: b.runId }, model: b.model, batch, importedAt: b.at.toISOString(), images: b.images });
  const body = JSON.stringify(signEnvelope(Buffer.from(JSON.stringify(statement)), IN_TOTO_PAYLOAD_TYPE, signingKey()));
  const { index } = await appendEntry(tx, { kind: "import", runId: b.runId, models: [b.model], body });
  return { index, batch };
}
