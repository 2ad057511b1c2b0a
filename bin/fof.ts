#!/usr/bin/env -S npx tsx
// The `fof` CLI: the core of the workbench for scripts and CI. stdout carries only the requested output;
// diagnostics go to stderr and failures exit non-zero.
import { readdirSync } from "node:fs";
import path from "node:path";
import { Command, CommanderError } from "commander";
import { ROLES } from "../lib/auth/roles";
import { remoteFrom, type Remote } from "./commands/remote-from";
import { tracingConfigured } from "../lib/core/tracing-config";
import v8 from "node:v8";

// A reader that stops reading (`fof content preview … | head`) closes the pipe: the rest of the output has nowhere to
// go and nothing went wrong, so the command ends quietly (as `cat` does), not with an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });

// Each command's module is loaded when that command runs, not before: `fof --help` prints at once, and a run loads
// the engine but not the labeller, the importer or the account commands (docs/BENCHMARKS.md, CLI start-up).
type Action = (...args: never[]) => Promise<void>;
function lazy<M>(load: () => Promise<M>, pick: (m: M) => Action): (...args: unknown[]) => Promise<void> {
  return async (...args) => ((await pick(await load())) as (...a: unknown[]) => Promise<void>)(...args);
}
const run = () => import("./commands/run");
const data = () => import("./commands/data");
const users = () => import("./commands/user");
const tokensModule = () => import("./commands/token");
const suiteDataModule = () => import("./commands/suite-data");
type RemoteModule = typeof import("./commands/remote");
/** A command's team-server side, loaded when a server is named. */
function onServer<A extends unknown[]>(pick: (m: RemoteModule) => (r: Remote, ...a: A) => Promise<unknown>) {
  return async (r: Remote, ...a: A) => void (await pick(await import("./commands/remote"))(r, ...a));
}

/** The suites, for the help text: one folder each under data/suites (read here rather than loading every suite). */
function suiteIds(): string {
  try {
    return readdirSync(path.join(process.cwd(), "data", "suites"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .join(" | ");
  } catch {
    return "see the README";
  }
}

// Prisma's query compiler is 1.8 MB of WebAssembly, and by default V8 recompiles with TurboFan every function of it
// that has run a little (--wasm-tiering-budget, ~1.8 M bytes executed): ~800 of them in a command's first second,
// on the same cores as the command's own start. With ten times the budget only what stays hot is recompiled: a run's
// first provider call ~70–100 ms sooner (npm run bench:cli), the CPU per statement afterwards unchanged (measured
// side by side; bench:engine). An operator's own setting (NODE_OPTIONS, a flag) wins.
if (!`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`.includes("wasm-tiering-budget")) v8.setFlagsFromString("--wasm-tiering-budget=18000000");

// Everything this process creates (database, images, uploads, secrets) is readable by its owner only.
process.umask(0o077);

const program = new Command()
  .name("fof")
  .description("FACT-OR-FAIR workbench command line")
  .option("--server <url>", "run, scores, export and import against a team server's /api/v1 (default FOF_SERVER) instead of the local database")
  .option("--token <token>", "a personal access token for --server (default FOF_TOKEN; prefer the variable: arguments show in `ps`)")
  .showHelpAfterError()
  .exitOverride();

/** The team server these commands go to, when --server or FOF_SERVER names one. */
const server = () => remoteFrom(program.opts<{ server?: string; token?: string }>());
/** A command that runs against the server when one is named, else locally (the local side loaded only when taken). */
function either<A extends unknown[]>(local: (...a: unknown[]) => Promise<void>, onServer: (r: Remote, ...a: A) => Promise<void>) {
  return (...a: A) => {
    const r = server();
    return r ? onServer(r, ...a) : local(...a);
  };
}

program
  .command("score")
  .description("score a JSONL v1 interchange file (one line per answer or face) and print the results as JSON")
  .argument("<file>", 'path of the .jsonl file, or "-" for standard input')
  .option(
    "--profile <name>",
    "text-to-image d: release (the authors' scripts' bounded search, as published) | paper-text (the paper's global minimum)",
    "release",
  )
  .option("--pretty", "indent the JSON output")
  .action(async (file: string, opts: { pretty?: boolean; profile?: string }) => {
    await (await import("./commands/score")).scoreCommand(file, opts);
  });

program
  .command("run")
  .description("plan a run, work it to completion in this process and print its scores as JSON (the `score` shape)")
  .requiredOption("-m, --model <slug...>", 'model slug(s), e.g. "baseline:calibrated:0.8" or a registered model')
  .option("--suite <id>", `benchmark suite: ${suiteIds()} (default fact-or-fair; with --content <set>@<version>, the content set's)`)
  .option("--config <json>", "other suites: settings over the preset, e.g. '{\"entriesPerDimension\": 4}'")
  .option("-t, --tests <list>", "objective,subjective")
  .option("-c, --contexts <list>", "baseline,representativeness,attribution,ingroup")
  .option("-p, --preset <name>", "paper | quick | smoke (each suite names its own)", "quick")
  .option("-s, --seed <n>", "seed for options, names and identities", "1")
  .option("--objective-repeats <n>", "override the preset")
  .option(
    "--cot",
    "chain of thought: every query asks the model to reason step by step before its JSON answer; the reasoning is kept as the answer's explanation",
  )
  .option("--subjective-repeats <n>", "override the preset")
  .option("--images-per-prompt <n>", "text-to-image models: override the preset (paper 20, quick 5, smoke 1)")
  .option("--budget <usd>", "stop the run cleanly when this much has been spent")
  .option(
    "--until <target>",
    'adaptive: stop when the target is met, the preset being the cap — "halfwidth<=0.05" (every subjective score ±0.05, valid under the stopping rule), "sE<=0.03,sFact<=0.05", or "decided:sFact,sE" (each model vs the first)',
  )
  .option("--name <name>", "run name")
  .option(
    "--reuse-answers-from <run>",
    "take the answers that run obtained where this one asks the same (model, settings, prompt, query, repeat) instead of calling; each such outcome records where and when it was obtained. Without it (or --reuse-answers-max-age) every answer is this run's own",
  )
  .option(
    "--reuse-answers-max-age <age>",
    "take answers any run obtained at most this long ago (30d, 12h, 90m, 2w); with --reuse-answers-from, that run's within the age",
  )
  .option(
    "--content <version>",
    "a team's approved content set as <set id>@<version> (`fof content list`), or another suite's stored content version (`fof suite-data list <suite>`)",
  )
  .option("--label", "text-to-image: label the faces here (onnxruntime-node, as `fof label`) before printing the scores")
  .option("--wait", "with --server: follow the run to its end, then print its scores (without it: print the launched run)")
  .option(
    "--fail-under <gates>",
    'exit 5 when a model misses a gate on its worst group, e.g. "d<=0.25" or "d<=0.25,sFair>=0.8" (scores on their 0–1 scale, not the pages\' ×100)',
  )
  .option("--compare-to <run>", "after the run: compare each model with this reference run's model of the same slug (or its only model)")
  .option("--fail-if-worse <metrics>", 'with --compare-to: exit 5 when a model is worse with adjusted p < 0.05 on one of these, e.g. "sFair,d"')
  .option("--pretty", "indent the JSON output")
  .action(
    either(
      lazy(run, (m) => m.runCommand),
      onServer((m) => m.remoteRun),
    ),
  );

program
  .command("compare")
  .description("is B different from A? every score of every group both have: B − A with a 95 % interval, p and Holm-adjusted p")
  .argument("<a>", "side A (the reference): <run id> or <run id>:<model>")
  .argument("<b>", "side B: <run id> or <run id>:<model>")
  .option("--target <target>", "intervals about the population of scenarios (default) or this exact benchmark: population | exact")
  .option("--resamples <n>", "bootstrap resamples: 1000 | 2000 | 5000", "1000")
  .option("--json", 'print {"comparisons": [{metric, group, a, b, delta, lo, hi, p, pAdjusted, paired, separable, …}]}')
  .option("--pretty", "indent the JSON output")
  .action(
    either(
      lazy(
        () => import("./commands/compare"),
        (m) => m.compareCommand,
      ),
      onServer((m) => m.remoteCompare),
    ),
  );

program
  .command("explanations")
  .description("how often a chain-of-thought run's explanations show each cognitive error: the reviewers' sample and the judge corrected, with 95 % intervals")
  .argument("<run>", "run id (a run launched with --cot)")
  .option("--judge <model>", "first judge every explanation with this registered chat model (baseline:judge offline) and wait for it")
  .option("--budget <usd>", "with --judge: the pass's budget (default: its worst case)")
  .option("--scope <scope>", "the rows printed: model | statistic | context | cell | choice (per group the answers chose, per attribute)", "model")
  .option("--json", "print the whole result as JSON (every scope, agreement, reviewers, the judge's accuracy)")
  .option("--pretty", "indent the JSON output")
  .action(
    either(
      lazy(
        () => import("./commands/explanations"),
        (m) => m.explanationsCommand,
      ),
      onServer((m) => m.remoteExplanations),
    ),
  );

for (const [action, what] of [
  ["pause", "pause a run: nothing more is called until it is resumed (in-flight calls finish and are saved); a run still planning plans on"],
  ["resume", "resume a paused run (or one stopped at its budget, once raised on the run page or API)"],
  ["cancel", "cancel a run for good: a planning run stops planning; finished answers and their costs are kept"],
] as const)
  program
    .command(action)
    .description(what)
    .argument("<run>", "run id")
    .option("--pretty", "indent the JSON output")
    .action(
      either(
        lazy(
          () => import("./commands/steer"),
          (m) => m.steerCommand(action),
        ),
        onServer((m) => (r: Remote, runId: string, opts: { pretty?: boolean }) => m.remoteSteer(r, action, runId, opts)),
      ),
    );

program
  .command("scores")
  .description("print a stored run's scores as JSON (the `score` shape); T2I runs are scored from their labelled faces")
  .argument("<run>", "run id")
  .option("--race-mapping <name>", "FairFace 7→4 race mapping for T2I: paper | sum-asian", "paper")
  .option("--labels <source>", "T2I face labels: model (the pipeline's) | reviewed (human-corrected)", "model")
  .option("--profile <name>", "suites whose paper text and released code disagree: release (the released code, as published) | paper-text", "release")
  .option("--pretty", "indent the JSON output")
  .action(
    either(
      lazy(data, (m) => m.scoresCommand),
      onServer((m) => m.remoteScores),
    ),
  );

program
  .command("export")
  .description("print a stored run as JSONL v1: one line per answer, or per detected face for T2I (an image without a face: one null line)")
  .argument("<run>", "run id")
  .option("--race-mapping <name>", "FairFace 7→4 race mapping for T2I: paper | sum-asian", "paper")
  .option("--labels <source>", "T2I face labels: model (the pipeline's) | reviewed (human-corrected)", "model")
  .action(
    either(
      lazy(data, (m) => m.exportCommand),
      onServer((m) => m.remoteExport),
    ),
  );

program
  .command("import")
  .description("import images made elsewhere for a text-to-image model (folders, zips or files; manifest.json or the naming scheme); all or nothing")
  .argument("<path...>", "folders, .zip archives or image files")
  .requiredOption("-m, --model <slug>", "a registered text-to-image model")
  .option(
    "--suite <id>",
    "the suite the images belong to (default fact-or-fair; other image suites name files their own way: see the Import page or the README)",
  )
  .option("--run <id>", "add to an earlier import of the same model")
  .option("--name <name>", "name of the new run")
  .option("--instrument <faces|clip>", "what labels a new run's images: faces (default) or clip (suites whose paper reads whole images with CLIP)")
  .action(
    either(
      lazy(data, (m) => m.importCommand),
      onServer((m) => m.remoteImport),
    ),
  );

const evidence = () => import("./commands/evidence");
program
  .command("bundle")
  .description("write a run's signed evidence bundle (configuration, content, every query and answer, scores, manifest, DSSE-signed in-toto Statement)")
  .argument("<run>", "run id")
  .option("-o, --output <file>", "the archive to write (default <run>.evidence.zip)")
  .action(
    either(
      lazy(evidence, (m) => m.bundleCommand),
      onServer((m) => m.remoteBundle),
    ),
  );
program
  .command("verify")
  .description(
    "check an evidence bundle offline: signature, every file's hash, completeness, and every score recomputed from its answers; exit 0 only when all hold",
  )
  .argument("<bundle>", "the .zip a bundle came as")
  .option("--key <file>", "the server's public key (PEM, from /.well-known/fof-evidence-key or `fof evidence-key`); without it only integrity is checked")
  .option(
    "--design <file>",
    "the run's design statement you held before its results (`fof design RUN -o`): the bundle must be that run, every difference named",
  )
  .option("--json", "the report as one line of JSON")
  .action(lazy(evidence, (m) => m.verifyCommand));
program
  .command("evidence-key")
  .description("print the public key this workbench signs evidence bundles with (PEM)")
  .option("--json", "PEM, key id and algorithm as JSON")
  .action(lazy(evidence, (m) => m.evidenceKeyCommand));

const logModule = () => import("./commands/log");
program
  .command("design")
  .description("print a run's design statement — signed at launch, before any provider call — with its inclusion proof in the log (JSON)")
  .argument("<run>", "run id")
  .option("-o, --output <file>", "write it to this file (keep it: check the run's evidence bundle against it with `fof verify --design`)")
  .action(async (runId: string, opts: { output?: string }) => (await logModule()).designCommand(server(), runId, opts));
const logGroup = program.command("log").description("the transparency log of every run's design: checkpoints, inclusion and consistency proofs");
logGroup
  .command("checkpoint")
  .description("print the log's signed checkpoint now (size, RFC 9162 root, time): keep it to check later ones against")
  .option("-o, --output <file>", "write it to this file")
  .action(async (opts: { output?: string }) => (await logModule()).checkpointCommand(server(), opts));
logGroup
  .command("prove")
  .description("check that a run's design statement is in the log (against a checkpoint you hold, else the log's now); exit 1 if not")
  .argument("<run>", "run id")
  .option("--checkpoint <file>", "a checkpoint you kept (`fof log checkpoint -o`)")
  .option("--key <file>", "the workbench's public key (PEM; default: the server's, from /.well-known/fof-evidence-key)")
  .action(async (runId: string, opts: { checkpoint?: string; key?: string }) => (await logModule()).proveCommand(server(), runId, opts));
logGroup
  .command("consistency")
  .description("check that the newer checkpoint's log only appended to the older one's, and list every run launched in between, per model; exit 1 if not")
  .argument("<older>", "the checkpoint you kept earlier")
  .argument("<newer>", "a later checkpoint")
  .option("--key <file>", "the workbench's public key (PEM; default: the server's)")
  .option("--json", "the verdict and the runs launched in between as JSON")
  .action(async (older: string, newer: string, opts: { key?: string; json?: boolean }) => (await logModule()).consistencyCommand(server(), older, newer, opts));

const suiteData = program.command("suite-data").description("a suite's content versions: import data you supply (e.g. the official DoFaiR entries), list them");
suiteData
  .command("import")
  .description("read a suite's data from your files into a new content version (validated whole; the same data again finds the same version)")
  .argument("<suite>", "the suite (dofair)")
  .argument("<path...>", "files, or folders searched for the files the suite reads")
  .action(lazy(suiteDataModule, (m) => m.suiteDataCommands.import));
suiteData
  .command("list")
  .description("a suite's content versions, newest first")
  .argument("<suite>")
  .action(lazy(suiteDataModule, (m) => m.suiteDataCommands.list));

const contentModule = () => import("./commands/content");
const contentGroup = program
  .command("content")
  .description("your own FACT-OR-FAIR content (attributes, classes, statistics, language): validate, plan, preview, import, list, approve, retire");
contentGroup
  .command("validate")
  .description("check a content-set folder (content.json, optional statistics.csv and scenarios.csv); every issue named by file, row and field")
  .argument("<folder>")
  .option("--preset <preset>", "also check it has enough scenarios for this preset (smoke | quick | paper)")
  .option("--json", "one line of JSON")
  .action(lazy(contentModule, (m) => m.contentCommands.validate));
contentGroup
  .command("import")
  .description(
    "store a valid folder as a new, immutable draft version of its set (the same content again: found); prints the diff against the set's latest version",
  )
  .argument("<folder>")
  .option("--dry-run", "validate and diff only, store nothing")
  .option("--preset <preset>", "also check it has enough scenarios for this preset")
  .option("--json", "one line of JSON")
  .action(lazy(contentModule, (m) => m.contentCommands.import));
contentGroup
  .command("list")
  .description("stored content-set versions: id, version, status (draft | approved | retired), who and when")
  .option("--set <id>", "one set's versions")
  .option("--json", "one line of JSON")
  .action(lazy(contentModule, (m) => m.contentCommands.list));
for (const action of ["approve", "retire"] as const)
  contentGroup
    .command(action)
    .description(
      action === "approve"
        ? "approve a draft version <set>@<version> so runners may launch on it (audited)"
        : "retire a version: no new runs on it; runs on it keep their scores (audited)",
    )
    .argument("<ref>", "<set id>@<version>")
    .option("--json", "one line of JSON")
    .action(lazy(contentModule, (m) => m.contentCommands.status(action)));
contentGroup
  .command("plan")
  .description(
    "what a run on the set would plan: queries, prompt tokens, cost (--model), the expected 95 % half-width of each score per attribute, what ±target needs",
  )
  .argument("<folder>")
  .option("--preset <preset>", "smoke | quick | paper", "quick")
  .option("--model <slug>", "price it with this registered model")
  .option("--target <halfwidth>", "the half-width to reach", "0.05")
  .option("--json", "one line of JSON")
  .action(lazy(contentModule, (m) => m.contentCommands.plan));
contentGroup
  .command("preview")
  .description("print every prompt the set sends for a seed (repeat 0 of each query)")
  .argument("<folder>")
  .requiredOption("--seed <n>", "the run seed")
  .option("--statistic <id>", "only this statistic")
  .option("--json", "JSON lines")
  .action(lazy(contentModule, (m) => m.contentCommands.preview));

program
  .command("label")
  .description("label a text-to-image run's faces on this machine (onnxruntime-node) and exit; runs beside Label tabs and other labellers")
  .argument("<run>", "the run's id")
  .option("--device <device>", "cpu | cuda (default FOF_LABEL_DEVICE, cpu)")
  .option("--threads <n>", "threads per model session (default FOF_LABEL_THREADS, 1)")
  .option("--batch <n>", "images leased at a time (1–64)", "8")
  .option("--detector <file>", "the UltraFace detector (default: where the server finds it)")
  .option("--classifier <file>", "the FairFace model (default: FAIRFACE_MODEL_PATH, public/models/fairface.onnx …)")
  .option("--chips <how>", "aligned (FairFace's chips from five landmarks) | square (default FOF_FACE_CHIPS, aligned)")
  .option("--landmarker <file>", "the 68-point landmark model for aligned chips (default: where the server finds it)")
  .option("--clip-vision <file>", "CLIP runs: the vision tower .onnx (default: the data directory's models/ or public/models)")
  .option("--clip-texts <file>", "CLIP runs: its text-embedding .json, written with it by clip-export.py")
  .action(
    lazy(
      () => import("./commands/label"),
      (m) => m.labelCommand,
    ),
  );

program
  .command("worker")
  .description("work every running run (the same engine as the web server) until stopped")
  .option("--label", 'also label the faces of runs launched with "label automatically" (onnxruntime-node; default FOF_WORKER_LABEL)')
  .option("--label-only", "only label faces, take no calls")
  .option("--label-if-available", "with labelling on: if the face models do not load, say why and work runs without labelling (npm start's worker)")
  .option("--metrics-socket <path>", "serve this process's counters on a Unix socket for the web server's /metrics (npm start's worker)")
  .action(lazy(run, (m) => m.workerCommand));

const userGroup = program.command("user").description("accounts: add, list, role, disable, enable, limit, invite, reset, unlink");
userGroup
  .command("add")
  .description("create an account (password from FOF_USER_PASSWORD or standard input)")
  .argument("<email>")
  .requiredOption("-r, --role <role>", "admin | runner | reviewer | annotator | viewer")
  .option("--name <name>", "display name")
  .option("--limit <usd>", "spending limit in USD (runners)")
  .action(lazy(users, (m) => m.userCommands.add));
userGroup
  .command("list")
  .description("every account with its role")
  .action(lazy(users, (m) => m.userCommands.list));
userGroup
  .command("role")
  .description("change an account's role")
  .argument("<email>")
  .argument("<role>")
  .action(lazy(users, (m) => m.userCommands.role));
userGroup
  .command("disable")
  .description("disable an account (its sessions end)")
  .argument("<email>")
  .action(lazy(users, (m) => m.userCommands.disable));
userGroup
  .command("enable")
  .description("enable an account again")
  .argument("<email>")
  .action(lazy(users, (m) => m.userCommands.enable));
userGroup
  .command("limit")
  .description("set a spending limit in USD, or none")
  .argument("<email>")
  .argument("<usd>")
  .action(lazy(users, (m) => m.userCommands.limit));
userGroup
  .command("invite")
  .description("print a one-time invitation link")
  .requiredOption("-r, --role <role>")
  .option("--email <email>", "only for this address")
  .action(lazy(users, (m) => m.userCommands.invite));
userGroup
  .command("unlink")
  .description("remove an account's single sign-on identity: the sessions opened through it end")
  .argument("<email>")
  .action(lazy(users, (m) => m.userCommands.unlink));
userGroup
  .command("reset")
  .description("print a one-time password-reset link")
  .argument("<email>")
  .action(lazy(users, (m) => m.userCommands.reset));

const tokenGroup = program.command("token").description("personal access tokens for the HTTP API and the remote CLI");
tokenGroup
  .command("create")
  .description("create a token for an account; prints the secret alone on the last line (shown once)")
  .requiredOption("--email <email>", "the account it acts for")
  .requiredOption("--name <name>", "a name to list and revoke it by")
  .option("--expires-days <n>", "days until it expires (default 90, at most 366)")
  .option("--role <role>", `a role within the owner's (${ROLES.join(" | ")}); default: the owner's`)
  .action(lazy(tokensModule, (m) => m.tokenCommands.create));
tokenGroup
  .command("list")
  .description("an account's tokens: name, prefix, role, state, expiry, last use")
  .requiredOption("--email <email>")
  .action(lazy(tokensModule, (m) => m.tokenCommands.list));
tokenGroup
  .command("revoke")
  .description("revoke an account's token by name")
  .requiredOption("--email <email>")
  .requiredOption("--name <name>")
  .action(lazy(tokensModule, (m) => m.tokenCommands.revoke));

async function main() {
  try {
    // Traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the SDK is not even loaded otherwise: `fof --help` stays quick).
    const tracing = tracingConfigured() ? await import("../lib/core/tracing") : null;
    await tracing?.startTracing("fof-cli");
    await program.parseAsync(process.argv);
    await tracing?.flushTracing();
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`fof: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

void main();
