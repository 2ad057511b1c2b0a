// One image query: from the image cache when the file is still stored, else generated; validated by content (off
// the event loop) and stored content-addressed before its outcome is buffered.
import { existsSync } from "node:fs";
import { ImageValidationError, resolveStoredImage, storeImage, validateImageAsync } from "../../images";
import { createHash } from "node:crypto";
import { composeWithHelper, type CallSettings } from "../../suites/types";
import { NO_VALUES } from "./outcome-values";
import {
  capOutput,
  classifyFailure,
  noteFailure,
  retryDelay,
  type Attempt,
  type CacheRow,
  type Claimed,
  type GeneratedImage,
  type ModelState,
  type ProcessorContext,
  type Reused,
} from "./work-types";
import { instruments } from "../../core/metrics";
import { contentAttribute, endSpan, startSpan } from "../../core/tracing";

/**
 * One image: from the cache when the same prompt and repeat were generated before and the file is still stored,
 * else from the provider. The bytes are validated by content before they are stored; a provider that returns
 * something that is not an image gets the query retried, then failed with the reason.
 */
export async function processImage(ctx: ProcessorContext, q: Claimed, m: ModelState, config: CallSettings): Promise<void> {
  const attempts: Attempt[] = [];
  const done = (
    status: "answered" | "failed",
    reason: string | null,
    extra: {
      rawText?: string | null;
      image?: GeneratedImage;
      costUsd?: number;
      latencyMs?: number | null;
      cached?: boolean;
      reused?: Reused | null;
      cacheRows?: CacheRow[];
    } = {},
  ) =>
    ctx.push({
      kind: "outcome",
      query: q,
      status,
      reason,
      rawText: extra.rawText ?? null,
      letter: null,
      values: NO_VALUES,
      attempts,
      latencyMs: extra.latencyMs ?? null,
      inputTokens: null,
      outputTokens: null,
      costUsd: extra.costUsd ?? 0,
      cached: extra.cached ?? false,
      reused: extra.reused ?? null,
      cacheRows: extra.cacheRows ?? [],
      image: extra.image,
    });

  // A prompt completed by another query's answer (reasoning or guidance written by a helper chat model): that
  // answer is appended, and the cache key covers it, so a different answer never reuses an image.
  let prompt = q.prompt;
  let key = q.cacheKey;
  if (q.dependsOnId != null) {
    const dep = await ctx.prisma.outcome.findUnique({ where: { queryId: q.dependsOnId }, select: { status: true, rawText: true, reason: true } });
    if (!dep || dep.status !== "answered" || !dep.rawText?.trim())
      return done(
        "failed",
        `the helper answer (reasoning or guidance) this prompt needs was not written (${dep ? `${dep.status}: ${dep.reason ?? "empty answer"}` : "no outcome"})`,
      );
    prompt = composeWithHelper(q.prompt, dep.rawText);
    key = createHash("sha256").update(`${q.cacheKey}|${prompt}`).digest("hex");
    const hit = await ctx.cached(q.runId, key);
    q = {
      ...q,
      cacheKey: key,
      cachedText: hit?.rawText ?? null,
      cachedImageSha256: hit?.imageSha256 ?? null,
      cachedFrom: hit && hit.fromRunId !== null ? { fromRunId: hit.fromRunId, at: hit.obtainedAt } : null,
    };
  }

  if (q.cachedText != null && q.cachedImageSha256) {
    const cached = cachedImage(ctx.dataDir, q.cachedText, q.cachedImageSha256);
    if (cached) {
      const from = q.cachedFrom ?? null;
      attempts.push({
        text: cached.revisedPrompt ?? undefined,
        latencyMs: 0,
        cached: true,
        ...(from ? { reusedFrom: from.fromRunId, reusedAt: from.at.toISOString() } : {}),
      });
      return done("answered", null, { rawText: cached.revisedPrompt, image: cached.image, cached: true, reused: from });
    }
  }
  if (!m.imageProvider || !m.imageSize) return done("failed", `provider not available: ${m.providerError}`);
  // Called only while the run still calls, and (when it may cost money) after its mark is written (./call-marks.ts).
  if (!(await ctx.mayCall(q, m))) return ctx.push({ kind: "release", query: q });

  await m.slot.rate.take(); // the model's requests/min share (./limits.ts)
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  const t0 = performance.now();
  const span = startSpan("provider.image", {
    "gen_ai.operation.name": "image_generation",
    "gen_ai.request.model": m.slug,
    "fof.run_id": q.runId,
    "fof.query_id": q.id,
    "fof.attempt": q.attempts + 1,
    ...contentAttribute("fof.prompt", prompt),
  });
  try {
    const res = await m.imageProvider.generate({ prompt, ...m.imageSize, signal: controller.signal, streamKey: `${await ctx.seed(q.runId)}|${q.cacheKey}` });
    if (res.revisedPrompt) res.revisedPrompt = capOutput(res.revisedPrompt);
    const ms = Math.round(performance.now() - t0);
    instruments().providerCall.observe({ model: m.slug, result: "ok" }, ms / 1000);
    endSpan(span, { "fof.outcome": "ok", "fof.image_bytes": res.bytes.length });
    // A generated image is paid for once it arrives, valid or not.
    const price = m.pricePerImage;
    let valid;
    try {
      valid = await validateImageAsync(res.bytes);
    } catch (e) {
      if (!(e instanceof ImageValidationError)) throw e;
      attempts.push({ error: `invalid image: ${e.message}`, latencyMs: ms });
      if (q.attempts < config.maxRetries) {
        instruments().providerRetries.inc({ model: m.slug, kind: "invalid_image" });
        return ctx.push({ kind: "retry", query: q, nextAttemptAt: new Date(Date.now() + ctx.backoff(q.attempts)), reason: `invalid image: ${e.message}` });
      }
      return done("failed", `gave up after ${q.attempts + 1} attempts: invalid image: ${e.message}`, { costUsd: price, latencyMs: ms });
    }
    const stored = storeImage(ctx.dataDir, res.bytes, valid);
    const image: GeneratedImage = {
      sha256: stored.sha256,
      path: stored.path,
      mimeType: valid.mime,
      width: valid.width,
      height: valid.height,
      bytes: res.bytes.length,
    };
    attempts.push({ text: res.revisedPrompt ?? undefined, latencyMs: ms });
    const cacheText = JSON.stringify({ ...image, revisedPrompt: res.revisedPrompt });
    return done("answered", null, {
      rawText: res.revisedPrompt,
      image,
      costUsd: price,
      latencyMs: ms,
      cacheRows: [
        {
          key: q.cacheKey,
          runId: q.runId,
          provider: m.providerName,
          model: m.slug,
          text: cacheText,
          imageSha256: image.sha256,
          inputTokens: null,
          outputTokens: null,
          costUsd: price,
        },
      ],
    });
  } catch (err) {
    const ms = Math.round(performance.now() - t0);
    const e = classifyFailure(err, controller.signal.aborted, config.timeoutMs);
    const message = e.message;
    noteFailure(m.slug, e.kind, ms, e.status);
    endSpan(span, { "fof.outcome": e.kind, ...(e.status ? { "http.response.status_code": e.status } : {}) }, message);
    attempts.push({ error: `${e.kind}: ${message}`, latencyMs: ms });
    if (e.kind === "fatal") return done("failed", message);
    if (q.attempts < config.maxRetries) {
      instruments().providerRetries.inc({ model: m.slug, kind: e.kind });
      const delay = retryDelay(ctx, q.attempts, e);
      return ctx.push({ kind: "retry", query: q, nextAttemptAt: new Date(Date.now() + delay), reason: `${e.kind}: ${message}` });
    }
    return done("failed", `gave up after ${q.attempts + 1} attempts: ${message}`);
  } finally {
    clearTimeout(timer);
  }
}

/** A cache entry's image, when its file is still in the store. */
function cachedImage(dataDir: string, text: string, sha256: string): { image: GeneratedImage; revisedPrompt: string | null } | null {
  try {
    const c = JSON.parse(text) as GeneratedImage & { revisedPrompt?: string | null };
    if (c.sha256 !== sha256 || !existsSync(resolveStoredImage(dataDir, c.path))) return null;
    return { image: { sha256, path: c.path, mimeType: c.mimeType, width: c.width, height: c.height, bytes: c.bytes }, revisedPrompt: c.revisedPrompt ?? null };
  } catch {
    return null;
  }
}
