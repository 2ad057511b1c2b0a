// Whether traces are asked for, apart from the tracer itself (./tracing.ts imports @opentelemetry/api): a process
// that traces nothing, `fof --help` first, never loads it.

/** Whether the environment asks for traces (the OTLP exporter's own variables). */
export function tracingConfigured(source: Record<string, string | undefined> = process.env): boolean {
  return !!(source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || source.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) && source.OTEL_SDK_DISABLED !== "true";
}
