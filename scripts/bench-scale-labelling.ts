// bench:scale, labelling part: label workers (`fof worker --label-only`, onnxruntime-node on CPU, one thread each)
// on one PostgreSQL, classifying with a ResNet-34 of FairFace's shapes and random weights (bench:faces' model: the
// real cost of FairFace, labels meaningless — the runs are "unverified", as they should be).
//   Scaling: 1 and 2 label workers label the same-sized generated FAIntbench run (timed from the moment "label
//   automatically" is switched on to the last image); every image labelled once (worker counts add up, no image
//   with two sets of faces).
//   End to end: FAIntbench's quick preset (5,308 images) launched with "label automatically" on the synthetic image
//   model, with two `fof worker --label` processes (calls and labels) already running: generated, labelled and
//   scored headlessly, timed from the launch to the scores.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildResNet34 } from "./bench-faces/resnet34";
import type { PrismaClient } from "../generated/prisma/client";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** bench:faces' FairFace-sized ResNet-34 (random weights), built once into a cache folder. */
function resnet34(): string {
  const cache = path.join(tmpdir(), "fof-bench");
  mkdirSync(cache, { recursive: true });
  const file = path.join(cache, "resnet34-fairface-random.onnx");
  if (!existsSync(file)) writeFileSync(file, buildResNet34());
  return file;
}

export async function labellingBench(prisma: PrismaClient, env: NodeJS.ProcessEnv, children: ChildProcess[]): Promise<string[]> {
  const STANDIN = resnet34();
  const { createRun, Worker } = await import("../tests/helpers/services");
  const { suiteResultsJson, genericSuiteOfRun } = await import("../lib/suites/export");
  const labelEnv = { ...env, FAIRFACE_MODEL_PATH: STANDIN, FOF_LABEL_THREADS: "1", FOF_LOG_LEVEL: "info" };
  const labelled = new Map<ChildProcess, { images: number; faces: number }>();
  const start = (n: number, args: string[]) =>
    Array.from({ length: n }, () => {
      const c = spawn(process.execPath, ["--max-old-space-size=256", "dist/fof.mjs", "worker", ...args], {
        env: labelEnv,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let buf = "";
      c.stderr!.setEncoding("utf8").on("data", (d: string) => {
        buf += d;
        const lines = buf.split("\n");
        buf = lines.pop()!;
        for (const l of lines) {
          if (l.includes('"worker stopped"')) labelled.set(c, JSON.parse(l).labelled);
          else if (/"level":(40|50|60)/.test(l)) process.stderr.write(`${l}\n`);
        }
      });
      children.push(c);
      return c;
    });
  const stop = async (ws: ChildProcess[]) => {
    for (const w of ws) w.kill("SIGTERM");
    await Promise.all(ws.map((w) => (w.exitCode === null && w.signalCode === null ? new Promise((r) => w.once("exit", r)) : null)));
  };
  const labellers = () => prisma.workerStatus.count({ where: { labeller: { not: null }, stoppedAt: null, heartbeatAt: { gt: new Date(Date.now() - 3_000) } } });
  const waitLabellers = async (n: number) => {
    while ((await labellers()) < n) await sleep(100);
  };
  const pending = (runId: string) => prisma.image.count({ where: { runId, labelStatus: { in: ["unlabelled", "leased"] } } });
  // Exactly once: a second pass over an image would store its faces twice (two detector faces per box).
  const twice = async (runId: string) =>
    Number(
      (
        await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
          `SELECT COUNT(*) AS n FROM (SELECT f."imageId" FROM "Face" f JOIN "Image" i ON i."id" = f."imageId" WHERE i."runId" = $1 GROUP BY f."imageId", f."x1", f."y1", f."x2", f."y2" HAVING COUNT(*) > 1) d`,
          runId,
        )
      )[0].n,
    );

  const rows: string[] = [];
  const config = { visibility: ["implicit", "explicit"], acquired: ["occupation", "characteristic", "relation"], imagesPerPrompt: 1, itemsPerAcquired: 5 };
  let seed = 100;
  let single = 0;
  for (const n of [1, 2]) {
    const run = await createRun(prisma, { suite: "faintbench", models: ["baseline:synthetic-faces"], config, seed: seed++ });
    await new Worker(prisma, { runId: run.id, pollMs: 20, flushMs: 50 }).run({ untilDone: true });
    const images = await pending(run.id);
    const ws = start(n, ["--label-only"]);
    await waitLabellers(n);
    const t0 = performance.now();
    await prisma.run.update({ where: { id: run.id }, data: { autoLabel: true } });
    while ((await pending(run.id)) > 0) await sleep(50);
    const seconds = (performance.now() - t0) / 1000;
    await stop(ws);
    const split = ws.map((w) => labelled.get(w)?.images ?? 0);
    const faces = await prisma.face.count({ where: { image: { runId: run.id } } });
    const rate = images / seconds;
    if (n === 1) single = rate;
    const once = split.reduce((a, b) => a + b, 0) === images && (await twice(run.id)) === 0;
    rows.push(
      `| ${n} | ${images.toLocaleString("en-US")} | ${faces.toLocaleString("en-US")} | ${seconds.toFixed(1)} s | ${rate.toFixed(2)} images/s (${(faces / seconds).toFixed(2)} faces/s) | ${n === 1 ? "1.00" : (rate / single).toFixed(2)} × | ${split.map((x) => x.toLocaleString("en-US")).join(" + ")} | ${once ? "yes" : "NO"} |`,
    );
    process.stderr.write(`${rows.at(-1)}\n`);
  }

  // End to end: FAIntbench quick, launched with "label automatically", on two workers that call and label.
  const ws = start(2, ["--label"]);
  await waitLabellers(2);
  const t0 = performance.now();
  const run = await createRun(prisma, {
    suite: "faintbench",
    models: ["baseline:synthetic-faces"],
    config: { visibility: ["implicit", "explicit"], acquired: ["occupation", "characteristic", "relation"], imagesPerPrompt: 2, itemsPerAcquired: 0 },
    preset: "quick",
    seed: seed++,
    autoLabel: true,
  });
  let generated = 0;
  for (;;) {
    const r = await prisma.run.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } });
    if (!generated && r.status === "completed") generated = (performance.now() - t0) / 1000;
    if (generated && (await pending(run.id)) === 0) break;
    await sleep(200);
  }
  const labelledAt = (performance.now() - t0) / 1000;
  await stop(ws);
  const body = await suiteResultsJson(prisma, run.id, (await genericSuiteOfRun(prisma, run.id))!, { labels: "model", resamples: 0 });
  const total = (performance.now() - t0) / 1000;
  const [images, faces] = await Promise.all([prisma.image.count({ where: { runId: run.id } }), prisma.face.count({ where: { image: { runId: run.id } } })]);
  const table2 = body.views.find((v) => v.id === "table2");
  const ours = table2?.kind === "table" ? table2.groups[0].rows.find((r) => r.source === "run") : undefined;
  const scores = ours ? ["implicit", "explicit", "eta"].map((m) => `${m} ${ours.cells[m]?.value?.toFixed(3) ?? "–"}`).join(", ") : "no scores";
  const e2e = `| FAIntbench quick (${run.plannedCount.toLocaleString("en-US")} planned), 2 × \`fof worker --label\` | ${images.toLocaleString("en-US")} | ${faces.toLocaleString("en-US")} | ${generated.toFixed(1)} s | ${labelledAt.toFixed(1)} s | ${total.toFixed(1)} s | ${scores}; caution: ${body.caution ?? "none"} |`;
  process.stderr.write(`${e2e}\n`);
  return [
    "| label workers | images | faces | time | throughput | vs 1 worker | images per worker | each image once |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "| end to end | images | faces | generated after | labelled after | scored after | Table 2 (random-weight labels: speed only) |",
    "|---|---|---|---|---|---|---|",
    e2e,
  ];
}
