import { db } from "@/lib/db";
import { releaseLeases } from "@/lib/features/labelling/leases";
import { jsonWrite } from "@/lib/server/http";

/** Gives leases back when a Label tab stops or closes (sent with fetch keepalive); only the tokens' holder can. */
export const POST = jsonWrite("faces.label", async (body, { viewer }) => ({ released: await releaseLeases(db(), body, viewer!.id) }), { maxBytes: 8192 });
