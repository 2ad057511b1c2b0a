// Comparisons on real (baseline) runs: sides named and checked, pairing by content and questions, McNemar for
// objective accuracy on the same questions, Holm over the family, the cache, and GET /api/v1/compare's guard.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-compare-");

const { db, migrateAndSeed } = await import("../lib/db");
const { createRun, presetConfig, Worker } = await import("./helpers/services");
const { compareSides } = await import("../lib/features/results/comparisons");
const { runsRankIntervals } = await import("../lib/features/results/ranks");
const { createUser } = await import("../lib/auth/users");
const { createToken } = await import("../lib/auth/tokens");
const route = await import("../app/api/v1/compare/route");
const ranksRoute = await import("../app/api/results/ranks/route");
const correctedRoute = await import("../app/api/runs/[id]/corrected/route");

const prisma = () => db();
let both = "";
let other = "";
let viewerToken = "";

async function work(models: string[], seed: number) {
  const config = presetConfig("quick", { contexts: ["baseline"] });
  const run = await createRun(prisma(), { models, config, seed });
  await new Worker(prisma(), { runId: run.id, pollMs: 10, flushMs: 10 }).run({ untilDone: true });
  return run.id;
}

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  both = await work(["baseline:uniform", "baseline:calibrated:0.8"], 5);
  other = await work(["baseline:uniform"], 6);
  const viewer = await createUser(prisma(), { email: "reader@example.org", name: "Reader", password: "test-password-123", role: "viewer" });
  viewerToken = (await createToken(prisma(), viewer.id, { name: "read" })).secret;
}, 120_000);
afterAll(async () => {
  await prisma().$disconnect();
});

describe("comparisons", () => {
  it("names its sides exactly, and refuses what cannot be compared", async () => {
    await expect(compareSides(prisma(), { runId: both }, { runId: other })).rejects.toThrow(/has 2 models \(.*baseline:uniform.*\): name one as/);
    await expect(compareSides(prisma(), { runId: other }, { runId: other })).rejects.toThrow(/two different sides/);
    await expect(compareSides(prisma(), { runId: both, model: "gpt-x" }, { runId: other })).rejects.toThrow(/no model "gpt-x"/);
    await expect(compareSides(prisma(), { runId: "nope" }, { runId: other })).rejects.toThrow(/run nope/);
  });

  it("tells a calibrated model from uniform answers on the same questions, with McNemar for objective accuracy", async () => {
    const r = await compareSides(prisma(), { runId: both, model: "baseline:uniform" }, { runId: both, model: "baseline:calibrated:0.8" });
    expect(r.paired).toBe(true);
    expect(r.pairing).toMatch(/same questions/);
    expect(r.target).toBe("population");
    const objective = r.comparisons.filter((c) => c.test === "objective" && c.metric === "sFact");
    expect(objective).toHaveLength(2);
    for (const c of objective) {
      expect(c.testUsed).toBe("mcnemar");
      expect(c.separable).toBe(true);
      expect(c.sentence).toMatch(/^B is better on S_fact \(O (gender|race)\): higher by .* \(A 0\.\d{3}, B 0\.\d{3}\), adjusted p/);
    }
    const raceEntropy = r.comparisons.find((c) => c.group === "S-B race" && c.metric === "sE")!;
    expect(raceEntropy.separable).toBe(true);
    expect(raceEntropy.delta).toBeLessThan(0);
    for (const c of r.comparisons) {
      expect(c.pAdjusted).toBeGreaterThanOrEqual(c.p);
      expect(c.lo <= c.delta && c.delta <= c.hi).toBe(true);
    }
    expect((await compareSides(prisma(), { runId: both, model: "baseline:uniform" }, { runId: both, model: "baseline:calibrated:0.8" })).cached).toBe(true);
  });

  it("finds nothing between two runs of uniform answers with different seeds", async () => {
    const r = await compareSides(prisma(), { runId: both, model: "baseline:uniform" }, { runId: other });
    expect(r.paired).toBe(true); // same content: the same scenarios
    expect(r.pairing).not.toMatch(/same questions/); // other seed: other persons and option orders
    expect(r.comparisons.filter((c) => c.test === "objective" && c.metric === "sFact").every((c) => c.testUsed === "bootstrap")).toBe(true);
    expect(r.comparisons.filter((c) => c.separable)).toEqual([]);
  });

  it("ranks every run's model with 95 % rank intervals: two uniform runs tie, the calibrated model is last on S_E", async () => {
    const r = await runsRankIntervals(prisma(), [both, other], "sE");
    const race = r.rows.filter((x) => x.column === "S-B" && x.attribute === "race");
    expect(race).toHaveLength(3);
    const calibrated = race.find((x) => x.model === "baseline:calibrated:0.8")!;
    expect(calibrated).toMatchObject({ rank: 3, lo: 3, hi: 3, tiedWith: [] });
    const uniform = race.filter((x) => x.model === "baseline:uniform");
    for (const u of uniform) {
      expect([u.lo, u.hi]).toEqual([1, 2]);
      expect(u.tiedWith).toHaveLength(1);
    }
    expect((await runsRankIntervals(prisma(), [both, other], "sE")).cached).toBe(true);
  });

  it("answers GET /api/v1/compare to a reader's token, and refuses the anonymous and the malformed", async () => {
    const call = (query: string, token?: string) =>
      route.GET(new Request(`http://127.0.0.1:3000/api/v1/compare?${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }), {
        params: Promise.resolve({}),
      });
    const q = new URLSearchParams({ a: `${both}:baseline:uniform`, b: other, target: "exact" }).toString();
    const ok = await call(q, viewerToken);
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.target).toBe("exact");
    expect(Object.keys(body.comparisons[0])).toEqual(
      expect.arrayContaining(["metric", "group", "a", "b", "delta", "lo", "hi", "p", "pAdjusted", "paired", "separable"]),
    );
    expect((await call(q)).status).toBe(401);
    expect((await call("a=has space&b=x", viewerToken)).status).toBe(400);
    expect((await call(`${q}&resamples=7`, viewerToken)).status).toBe(400);
  });

  it("guards the rank and corrected-score routes: readers only, bounded input, text-to-image only for corrections", async () => {
    // The narrowest route context (a run id): every route here accepts it.
    type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;
    const get = (handler: Handler, path: string, token?: string, params: { id: string } = { id: "" }) =>
      handler(new Request(`http://127.0.0.1:3000${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }), {
        params: Promise.resolve(params),
      });
    const ok = await get(ranksRoute.GET, `/api/results/ranks?runs=${both},${other}&metric=sE`, viewerToken);
    expect(ok.status).toBe(200);
    expect((await ok.json()).rows.length).toBeGreaterThan(0);
    const csv = await get(ranksRoute.GET, `/api/results/ranks?runs=${both}&metric=sE&format=csv`, viewerToken);
    expect((await csv.text()).split("\n")[0]).toBe("run_id,model,column,attribute,metric,rank,rank_lo,rank_hi,tied_with,interval_target");
    expect((await get(ranksRoute.GET, `/api/results/ranks?runs=${both}`)).status).toBe(401);
    expect((await get(ranksRoute.GET, "/api/results/ranks?runs=", viewerToken)).status).toBe(400);
    expect((await get(ranksRoute.GET, `/api/results/ranks?runs=${both}&metric=bogus`, viewerToken)).status).toBe(400);
    const many = Array.from({ length: 21 }, (_, i) => `r${i}`).join(",");
    expect((await get(ranksRoute.GET, `/api/results/ranks?runs=${many}`, viewerToken)).status).toBe(400);
    expect((await get(correctedRoute.GET, `/api/runs/${both}/corrected`, undefined, { id: both })).status).toBe(401);
    const llm = await get(correctedRoute.GET, `/api/runs/${both}/corrected`, viewerToken, { id: both });
    expect(llm.status).toBe(400);
    expect((await llm.json()).error).toMatch(/text-to-image runs/);
    expect((await get(correctedRoute.GET, `/api/runs/${both}/corrected?target=nope`, viewerToken, { id: both })).status).toBe(400);
  });
});
