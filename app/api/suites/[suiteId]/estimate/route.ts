import { z } from "zod";
import { db } from "@/lib/db";
import { jsonWrite } from "@/lib/server/http";
import { estimateSuiteRun } from "@/lib/suites/estimate";

const schema = z.strictObject({
  models: z.array(z.string().max(200)).max(20),
  config: z.record(z.string(), z.unknown()),
  contentVersion: z.string().trim().min(1).max(120).optional(),
});

/** What a launch of this suite would plan and roughly cost (nothing is planned): the launch form asks as it changes. */
export const POST = jsonWrite<{ suiteId: string }>(
  "runs.manage",
  async (body, { params }) => {
    const input = schema.parse(body);
    return estimateSuiteRun(db(), { suite: params.suiteId, ...input });
  },
  { maxBytes: 64 * 1024 },
);
