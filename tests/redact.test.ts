// Secrets in URLs never leave in a span or a log line: a join link's token, the setup token, a single sign-on
// callback's code and state, any parameter named like a secret — whoever made the span (Next.js's request spans carry
// the whole target). Everything else in the URL is kept, so a trace still says what was asked.
import { describe, expect, it } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { REDACTED, redactUrls } from "../lib/core/redact";
import { redactingExporter } from "../lib/core/tracing";

describe("redactUrls", () => {
  it("removes the secrets and keeps the rest", () => {
    expect(redactUrls("/join/Zx9_secret-token")).toBe(`/join/${REDACTED}`);
    expect(redactUrls("/join/Zx9?next=/runs")).toBe(`/join/${REDACTED}?next=/runs`);
    expect(redactUrls("/setup?token=abc123")).toBe(`/setup?token=${REDACTED}`);
    expect(redactUrls("/api/auth/callback/oidc?code=c0de&state=st4te&iss=http%3A%2F%2Fidp")).toBe(
      `/api/auth/callback/oidc?code=${REDACTED}&state=${REDACTED}&iss=http%3A%2F%2Fidp`,
    );
    expect(redactUrls("https://h.example/x?API_KEY=k&page=2&access_token=t#frag")).toBe(
      `https://h.example/x?API_KEY=${REDACTED}&page=2&access_token=${REDACTED}#frag`,
    );
    // A name written with percent-escapes is still the name.
    expect(redactUrls("/setup?%74oken=abc")).toBe(`/setup?%74oken=${REDACTED}`);
    expect(redactUrls("GET /api/v1/runs/abc/scores?format=json")).toBe("GET /api/v1/runs/abc/scores?format=json");
    expect(redactUrls("")).toBe("");
    // However the path or the name is written (the hostile re-test's forms)
    expect(redactUrls("/JOIN/Zx9tok")).toBe(`/JOIN/${REDACTED}`);
    expect(redactUrls("/%6Aoin/Zx9tok")).toBe(`/%6Aoin/${REDACTED}`);
    expect(redactUrls("//join//Zx9tok/")).toBe(`//join//${REDACTED}/`);
    expect(redactUrls("GET /join/abc http://h/x/join/def")).toBe(`GET /join/${REDACTED} http://h/x/join/${REDACTED}`);
    // dot segments a router resolves to the token (the second hostile re-test's forms)
    expect(redactUrls("/join/./Zx9tok")).toBe(`/join/${REDACTED}/${REDACTED}`);
    expect(redactUrls("/join/%2e/Zx9tok")).toBe(`/join/${REDACTED}/${REDACTED}`);
    expect(redactUrls("/join/x/../Zx9tok?next=/runs")).toBe(`/join/${REDACTED}/${REDACTED}/${REDACTED}?next=/runs`);
    expect(redactUrls("/join/T /runs/abc")).toBe(`/join/${REDACTED} /runs/abc`);
    expect(redactUrls("/x?token%00=abc&token_=def&TOKEN=ghi&tok%65n=jkl&page=1")).toBe(
      `/x?token%00=${REDACTED}&token_=${REDACTED}&TOKEN=${REDACTED}&tok%65n=${REDACTED}&page=1`,
    );
  });
});

describe("the exporter every span leaves through", () => {
  it("redacts names, attributes, events and status messages of any span", async () => {
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: redactingExporter(memory) })] });
    const span = provider.getTracer("next.js").startSpan("GET /join/tok3n-canary", {
      attributes: { "http.target": "/setup?token=setup-canary", "http.url": "http://h/api/auth/callback/oidc?code=code-canary&state=state-canary", n: 3 },
    });
    span.addEvent("redirect", { location: "/join/tok3n-canary" });
    span.setStatus({ code: 2, message: "failed at /setup?token=setup-canary" });
    span.end();
    await provider.forceFlush();
    const [out] = memory.getFinishedSpans();
    const text = JSON.stringify({ name: out!.name, attributes: out!.attributes, events: out!.events, status: out!.status });
    for (const canary of ["tok3n-canary", "setup-canary", "code-canary", "state-canary"]) expect(text).not.toContain(canary);
    expect(out!.attributes.n).toBe(3);
    expect(out!.attributes["http.target"]).toBe(`/setup?token=${REDACTED}`);
    expect(out!.spanContext().traceId).toBe(span.spanContext().traceId);
  });
});
