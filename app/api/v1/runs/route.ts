import { jsonRead, jsonWrite } from "@/lib/server/http";
import { launch, listRuns } from "@/lib/server/api/v1";

/** Runs of every suite, newest first (?suite, ?status, ?limit). */
export const GET = jsonRead("results.read", listRuns);
/**
 * Launches a run: `{ suite, variant?, models, preset, config?, seed, budgetUsd?, name?, autoLabel? }` → 202 `{ run }`, at
 * once and whatever its size, the run in "planning" (its queries are written in the background; GET it to follow).
 */
export const POST = jsonWrite("runs.manage", launch, { maxBytes: 64 * 1024, status: 202 });
