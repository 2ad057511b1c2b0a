#!/usr/bin/env -S npx tsx
// The `fof` CLI: the core of the workbench for scripts and CI. stdout carries only the requested output;
// diagnostics go to stderr and failures exit non-zero.
import { Command, CommanderError } from "commander";
import { scoreCommand } from "./commands/score";

const program = new Command()
  .name("fof")
  .description("FACT-OR-FAIR workbench command line")
  .showHelpAfterError()
  .exitOverride();

program
  .command("score")
  .description("score a JSONL v1 interchange file (one line per answer or face) and print the results as JSON")
  .argument("<file>", 'path of the .jsonl file, or "-" for standard input')
  .option("--pretty", "indent the JSON output")
  .action(async (file: string, opts: { pretty?: boolean }) => {
    await scoreCommand(file, opts);
  });

async function main() {
  try {
    await program.parseAsync(process.argv);
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
