// One LLM query: the cached first answer or a provider call, re-asked while unparseable, retried with backoff on
// retryable errors; ends in exactly one buffered outcome (or a retry), never a thrown error.
import type { Attribute, Context, Identity, ObjectiveOption, Person } from "../../benchmark";
import { HELPER_TEST, type AnswerReading, type CallSettings } from "../../suites/types";
import type { PlannedTruth } from "../../providers/types";
import { overReportStop } from "./budget";
import { chargeFor } from "../../providers/charges";
import { NO_VALUES, outcomeValues } from "./outcome-values";
import {
  attemptKey,
  capOutput,
  classifyFailure,
  noteFailure,
  retryDelay,
  type Attempt,
  type CacheRow,
  type Claimed,
  type ModelState,
  type ProcessorContext,
  type Reused,
} from "./work-types";
import { instruments } from "../../core/metrics";
import { contentAttribute, endSpan, startSpan } from "../../core/tracing";

/** An answer the provider cut at max_tokens: recorded as answered, with this reason shown beside it. */
const TRUNCATED_REASON = 'cut short: the provider stopped at max_tokens (finish_reason "length")';

export type AnswerReader = (query: { test: string; attribute: string | null; optionsJson: string }, text: string) => AnswerReading;

/** One chat query of any suite: the suite's reader decides what a readable answer is (a letter, free text). */
export async function processLlm(ctx: ProcessorContext, q: Claimed, m: ModelState, config: CallSettings, read: AnswerReader): Promise<void> {
  const options = JSON.parse(q.optionsJson) as ObjectiveOption[] | Person[];
  const attempts: Attempt[] = [];
  const cacheRows: CacheRow[] = [];
  let inTok: number | null = null;
  let outTok: number | null = null;
  let spent = 0;
  const excess = { calls: 0, usd: 0 };
  let latency = 0;
  let allCached = true;
  // the provenance of the latest attempt's text: another run's answer (taken because the launch asked), or null
  let reused: Reused | null = null;
  // the latest attempt's text was cut at max_tokens: an answered outcome says so in its reason
  let cut = false;
  const fail = (status: "failed" | "refused", reason: string, rawText: string | null) =>
    ctx.push({
      kind: "outcome",
      query: q,
      status,
      reason,
      rawText,
      letter: null,
      values: NO_VALUES,
      attempts,
      latencyMs: latency || null,
      inputTokens: inTok,
      outputTokens: outTok,
      costUsd: spent,
      usageExcess: excess.calls ? excess : null,
      cached: allCached && attempts.length > 0,
      reused: rawText === null ? null : reused,
      cacheRows,
    });

  if (!m.provider) return fail("failed", `provider not available: ${m.providerError}`, null);
  if (m.usageStop) return fail("failed", m.usageStop, null);

  for (let ask = 0; ask <= config.maxReasks; ask++) {
    const key = attemptKey(q.cacheKey, ask);
    // The first ask's cache entry came with the claim; re-asks (rare) look theirs up. Only this run's answers, or
    // another run's where the launch asked for them (./answer-cache.ts).
    const hit =
      ask === 0
        ? q.cachedText != null
          ? { text: q.cachedText, from: q.cachedFrom ?? null }
          : null
        : await ctx
            .cached(q.runId, key)
            .then((c) => (c?.rawText != null ? { text: c.rawText, from: c.fromRunId === null ? null : { fromRunId: c.fromRunId, at: c.obtainedAt } } : null));
    let text: string;
    if (hit) {
      text = hit.text;
      reused = hit.from;
      cut = false;
      attempts.push({ text, latencyMs: 0, cached: true, ...(hit.from ? { reusedFrom: hit.from.fromRunId, reusedAt: hit.from.at.toISOString() } : {}) });
    } else {
      reused = null;
      // The first call of this claim: made only while the run still calls, and (when it may cost money) after its
      // mark is written, so it is charged even if this worker dies before its answer is (./call-marks.ts).
      if (allCached && !(await ctx.mayCall(q, m))) return ctx.push({ kind: "release", query: q });
      allCached = false;
      // Every request counts against the model's requests/min share, tokens after the answer (./limits.ts).
      await m.slot.rate.take();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), config.timeoutMs);
      const t0 = performance.now();
      const span = startSpan("provider.chat", {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": m.slug,
        "fof.run_id": q.runId,
        "fof.query_id": q.id,
        "fof.attempt": q.attempts + 1,
        "fof.ask": ask,
        ...contentAttribute("fof.prompt", q.prompt),
      });
      try {
        const res = await m.provider.chat({
          prompt: q.prompt,
          system: q.test === HELPER_TEST ? config.helperSystem : undefined,
          signal: controller.signal,
          query: {
            test: q.test as "objective" | "subjective",
            context: q.context as Context | null,
            statisticId: q.statisticId,
            level: q.level as "highest" | "lowest",
            attribute: q.attribute as Attribute | null,
            scenarioIndex: q.scenarioIndex,
            options,
            identity: q.identityJson ? (JSON.parse(q.identityJson) as Identity) : null,
            truth: JSON.parse(q.groundTruthJson) as PlannedTruth,
            streamKey: key,
            seed: await ctx.seed(q.runId),
          },
        });
        const ms = Math.round(performance.now() - t0);
        instruments().providerCall.observe({ model: m.slug, result: "ok" }, ms / 1000);
        latency += ms;
        text = capOutput(res.text);
        endSpan(span, {
          "fof.outcome": "ok",
          "gen_ai.usage.input_tokens": res.inputTokens ?? 0,
          "gen_ai.usage.output_tokens": res.outputTokens ?? 0,
          ...contentAttribute("fof.answer", text),
        });
        m.slot.rate.charge((res.inputTokens ?? 0) + (res.outputTokens ?? 0));
        inTok = (inTok ?? 0) + (res.inputTokens ?? 0);
        outTok = (outTok ?? 0) + (res.outputTokens ?? 0);
        const { usd: c, excessUsd } = chargeFor(m, q.prompt.length, res.inputTokens, res.outputTokens);
        spent += c;
        if (excessUsd > 0) {
          excess.calls++;
          excess.usd += excessUsd;
          noteOverReport(m);
        }
        cut = res.truncated === true;
        attempts.push({ text, latencyMs: ms, ...(excessUsd > 0 ? { usageExcessUsd: excessUsd } : {}), ...(cut ? { truncated: true } : {}) });
        cacheRows.push({
          key,
          runId: q.runId,
          provider: m.providerName,
          model: m.slug,
          text,
          inputTokens: res.inputTokens,
          outputTokens: res.outputTokens,
          costUsd: c,
        });
      } catch (err) {
        const ms = Math.round(performance.now() - t0);
        const e = classifyFailure(err, controller.signal.aborted, config.timeoutMs);
        const message = e.message;
        noteFailure(m.slug, e.kind, ms, e.status);
        endSpan(span, { "fof.outcome": e.kind, ...(e.status ? { "http.response.status_code": e.status } : {}) }, message);
        attempts.push({ error: `${e.kind}: ${message}`, latencyMs: ms });
        if (e.kind === "fatal") return fail("failed", message, null);
        if (q.attempts < config.maxRetries) {
          instruments().providerRetries.inc({ model: m.slug, kind: e.kind });
          const delay = retryDelay(ctx, q.attempts, e);
          // Responses already paid for in this attempt are cached, so the retry re-uses them.
          if (cacheRows.length) ctx.push({ kind: "cache", rows: cacheRows });
          return ctx.push({
            kind: "retry",
            query: q,
            nextAttemptAt: new Date(Date.now() + delay),
            reason: `${e.kind}: ${message}`,
            costUsd: spent,
            usageExcess: excess.calls ? excess : null,
          });
        }
        return fail("failed", `gave up after ${q.attempts + 1} attempts: ${message}`, null);
      } finally {
        clearTimeout(timer);
      }
    }
    const parsed = read(q, text);
    const stored = parsed.ok ? outcomeValues(parsed) : null;
    if (stored && !stored.ok) return fail("failed", `the suite read values this workbench has no column for: ${stored.unknown.join(", ")}`, text);
    if (parsed.ok && stored?.ok)
      return ctx.push({
        kind: "outcome",
        query: q,
        status: "answered",
        reason: cut ? TRUNCATED_REASON : null,
        rawText: text,
        letter: parsed.choice,
        values: stored.values,
        attempts,
        latencyMs: latency || null,
        inputTokens: inTok,
        outputTokens: outTok,
        costUsd: spent,
        usageExcess: excess.calls ? excess : null,
        cached: allCached,
        reused,
        cacheRows,
      });
    if (ask === config.maxReasks && !parsed.ok) return fail("refused", `unparseable after ${ask + 1} asks: ${parsed.message}`, text);
  }
}

/** Counts a call whose provider reported more usage than the request allowed; enough of them stop the model in this run. */
function noteOverReport(m: ModelState) {
  m.overReports++;
  m.usageStop ??= overReportStop(m.overReports, m.maxTokens);
}
