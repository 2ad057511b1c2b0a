import { db } from "@/lib/db";
import { jsonRead, jsonWrite } from "@/lib/server/http";
import { cancelJudgePass, startJudgePass } from "@/lib/features/explanations/judge-pass";
import { cancelJudgeQuery, judgeBody } from "@/lib/server/api/explanations";
import { actorOf, audit } from "@/lib/auth/audit";
import { judgePasses } from "@/lib/features/explanations/passes";

export const GET = jsonRead<{ id: string }>("results.read", async (_query, { params }) => ({ passes: await judgePasses(db(), params.id) }));

/** Starts a judge pass, charged to the caller (its budget within their spending limit). */
export const POST = jsonWrite<{ id: string }>(
  "runs.manage",
  async (body, { params, viewer }) => {
    const b = judgeBody.parse(body);
    const pass = await startJudgePass(
      db(),
      { id: viewer!.id, role: viewer!.role, spendingLimitUsd: viewer!.spendingLimitUsd ?? null },
      { ...b, runId: params.id },
    );
    await audit(db(), {
      ...actorOf(viewer),
      action: "judge.start",
      targetType: "run",
      targetId: params.id,
      details: { passId: pass.id, judge: b.judge, budgetUsd: pass.budgetUsd },
    });
    return pass;
  },
  { status: 202 },
);

/** Cancels a pass under way (its owner, or whoever may steer any run). */
export const PUT = jsonWrite<{ id: string }>("runs.manage", async (_body, { req, params, viewer }) => {
  const q = cancelJudgeQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  await cancelJudgePass(db(), params.id, q.passId, { id: viewer!.id, role: viewer!.role });
  await audit(db(), { ...actorOf(viewer), action: "judge.cancel", targetType: "run", targetId: params.id, details: { passId: q.passId } });
  return { cancelled: true };
});
