// OpenTelemetry traces, optional: on when OTEL_EXPORTER_OTLP_ENDPOINT (or …_TRACES_ENDPOINT) is set, started by the
// process (web server, `fof worker`, `fof run`) through startTracing(). Off, every helper here returns at its first
// line: no span objects, no SDK loaded, nothing on the engine's hot path. Spans carry ids and numbers (run, model,
// attempt, status, tokens), never prompts, answers or keys — prompts and answers only when the operator opts in
// (FOF_TRACE_CONTENT=on); keys never.
// The API itself is loaded by startTracing (kept in the state below), not here: off, nothing of OpenTelemetry loads
// (~35 ms of a CLI command's start, npm run bench:cli).
import type { Attributes, Span } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";
import { tracingConfigured } from "./tracing-config";
import { redactAttributes, redactUrls } from "./redact";

export { tracingConfigured };

interface TracingState {
  api: typeof import("@opentelemetry/api");
  /** prompts and answers as span attributes (the operator opted in) */
  content: boolean;
  flush(): Promise<void>;
}

const g = globalThis as unknown as { __fofTracing?: TracingState };
const TRACER = "fact-or-fair-workbench";
/** SpanStatusCode.ERROR (a stable value of the OTLP specification; the enum would load the API). */
const ERROR = 2;
/** The most of a prompt or answer a span carries when content is on. */
const MAX_CONTENT = 4096;

/**
 * Starts exporting spans over OTLP/HTTP (the exporter reads OTEL_EXPORTER_OTLP_* — endpoint, headers, timeout — and
 * OTEL_SERVICE_NAME). Loads the SDK only here. Idempotent; returns whether tracing is on.
 */
export async function startTracing(serviceName: string, source: Record<string, string | undefined> = process.env): Promise<boolean> {
  if (g.__fofTracing) return true;
  if (!tracingConfigured(source)) return false;
  const [{ BatchSpanProcessor, TracerProvider }, { OTLPTraceExporter }, { resourceFromAttributes }, { AsyncLocalStorageContextManager }, api] =
    await Promise.all([
      import("@opentelemetry/sdk-trace"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/context-async-hooks"),
      import("@opentelemetry/api"),
    ]);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": source.OTEL_SERVICE_NAME?.trim() || serviceName }),
    // Every span is redacted on its way out (redactingExporter): Next.js's own request spans carry the whole request
    // target, secrets in URLs included.
    spanProcessors: [new BatchSpanProcessor({ exporter: redactingExporter(new OTLPTraceExporter({ url: tracesUrl(source) })) })],
  });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.trace.setGlobalTracerProvider(provider);
  g.__fofTracing = { api, content: source.FOF_TRACE_CONTENT === "on", flush: () => provider.forceFlush() };
  return true;
}

/**
 * An exporter that sends every span with its secret URL parts removed (lib/core/redact.ts): its name, attributes,
 * events and status message — whoever made the span (ours, Next.js's, a library's).
 */
export function redactingExporter(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(redactSpan), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

function redactSpan(s: ReadableSpan): ReadableSpan {
  return {
    name: redactUrls(s.name),
    kind: s.kind,
    spanContext: () => s.spanContext(),
    parentSpanContext: s.parentSpanContext,
    startTime: s.startTime,
    endTime: s.endTime,
    status: s.status.message ? { ...s.status, message: redactUrls(s.status.message) } : s.status,
    attributes: redactAttributes(s.attributes),
    links: s.links.map((l) => ({ ...l, attributes: l.attributes && redactAttributes(l.attributes) })),
    events: s.events.map((e) => ({ ...e, name: redactUrls(e.name), attributes: e.attributes && redactAttributes(e.attributes) })),
    duration: s.duration,
    ended: s.ended,
    resource: s.resource,
    instrumentationScope: s.instrumentationScope,
    droppedAttributesCount: s.droppedAttributesCount,
    droppedEventsCount: s.droppedEventsCount,
    droppedLinksCount: s.droppedLinksCount,
  };
}

/** Where spans go: …_TRACES_ENDPOINT as it is, or the general endpoint + /v1/traces (the OTLP specification's rule). */
function tracesUrl(source: Record<string, string | undefined>): string {
  const traces = source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  return traces || `${source.OTEL_EXPORTER_OTLP_ENDPOINT!.trim().replace(/\/+$/, "")}/v1/traces`;
}

/** Sends what is buffered (tests; a CLI before it exits). */
export async function flushTracing(): Promise<void> {
  await g.__fofTracing?.flush();
}

/** Runs `fn` in a span that is the parent of spans started inside it; off: runs `fn` alone. */
export async function traced<T>(name: string, attributes: Attributes, fn: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!g.__fofTracing) return fn(undefined);
  return g.__fofTracing.api.trace.getTracer(TRACER).startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      fail(span, e);
      throw e;
    } finally {
      span.end();
    }
  });
}

/** Starts a span to be ended by endSpan (for code whose success and failure paths part, e.g. a provider call); off: undefined. */
export function startSpan(name: string, attributes: Attributes): Span | undefined {
  return g.__fofTracing ? g.__fofTracing.api.trace.getTracer(TRACER).startSpan(name, { attributes }) : undefined;
}

/** Ends a span with its outcome: `error` marks it failed. */
export function endSpan(span: Span | undefined, attributes: Attributes, error?: string): void {
  // Ended already (a later step of the same call failed after its success was recorded): keep the first outcome.
  if (!span?.isRecording()) return;
  span.setAttributes(attributes);
  if (error) span.setStatus({ code: ERROR, message: error.slice(0, 300) });
  span.end();
}

/** Marks the span the request runs in (Next.js's own, for a server action) with what it is about; off: nothing. */
export function markActiveSpan(attributes: Attributes): void {
  if (g.__fofTracing) g.__fofTracing.api.trace.getActiveSpan()?.setAttributes(attributes);
}

/** A prompt or an answer as an attribute, only when the operator opted in (else nothing). */
export function contentAttribute(key: string, text: string | null | undefined): Attributes {
  return g.__fofTracing?.content && text ? { [key]: text.slice(0, MAX_CONTENT) } : {};
}

function fail(span: Span, e: unknown) {
  const message = e instanceof Error ? e.message : String(e);
  span.setStatus({ code: ERROR, message: message.slice(0, 300) });
  span.setAttribute("error.type", e instanceof Error ? e.name : "error");
}
