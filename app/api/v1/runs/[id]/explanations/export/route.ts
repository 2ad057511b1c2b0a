import { db } from "@/lib/db";
import { jsonRead } from "@/lib/server/http";
import { explanationExportRows } from "@/lib/features/explanations/export";
import { explanationExportQuery } from "@/lib/server/api/explanations";
import { cotRunOrThrow } from "@/lib/features/explanations/items";
import { assertNotBlind } from "@/lib/features/explanations/access";

/** Every reading and judgment of the run's explanations, streamed. */
export const GET = jsonRead<{ id: string }>("data.export", async (query, { params, viewer }) => {
  const { format } = explanationExportQuery.parse(query);
  await cotRunOrThrow(db(), params.id);
  await assertNotBlind(db(), params.id, viewer?.id);
  const rows = explanationExportRows(db(), params.id, format);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rows.next();
      if (next.done) return controller.close();
      controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="explanations-${params.id}.${format}"`,
      "cache-control": "no-store",
    },
  });
});
