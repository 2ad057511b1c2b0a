/** A policy under which a response runs and loads nothing. */
const INERT = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native SQLite driver stays outside the bundle.
  // Native / driver packages stay outside the bundle (SQLite driver; PostgreSQL driver; the logger).
  // OpenTelemetry stays one copy shared with Next.js's own tracer (its global provider), loaded only when traces are on.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
    "pino",
    // required on first use by lib/core/metrics.ts: one copy, whichever bundle records or scrapes
    "prom-client",
    "onnxruntime-node",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/resources",
  ],
  poweredByHeader: false,
  // `npm test` type-checks the whole project (app, lib, tests) with the same tsconfig before it builds, and sets this
  // so the build does not do it a second time (~20 s of a CI run). Any other build checks types as usual.
  typescript: { ignoreBuildErrors: process.env.FOF_BUILD_TYPES_CHECKED === "1" },
  experimental: {
    // Server actions carry form fields only: image uploads stream to disk through /api/imports, file by file.
    serverActions: { bodySizeLimit: "1mb" },
    // forbidden() in pageGuard: a page a role may not see answers 403 (app/forbidden.tsx), not 200.
    authInterrupts: true,
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      {
        // API routes, the public key and the model files: what proxy.ts does not give a page's policy runs nothing
        // and can be framed by no one (an error page Next.js renders there is HTML too). Not the worker scripts'
        // folders (_next/static, /ort, /verifier): a worker takes its policy from its own script's response.
        source: "/:prefix(api|models|\\.well-known)/:path*",
        headers: [{ key: "Content-Security-Policy", value: INERT }],
      },
      { source: "/metrics", headers: [{ key: "Content-Security-Policy", value: INERT }] },
      {
        // The worker scripts' folders: a worker runs under its own script's policy, so this one lets a worker do what
        // onnxruntime's and the verifier's do (same-origin scripts and data, WebAssembly, blob workers) and nothing
        // else; an error page rendered here gets no inline script run and cannot be framed.
        source: "/:prefix(ort|verifier)/:path*",
        headers: [
          {
            key: "Content-Security-Policy",
            value:
              "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
          },
        ],
      },
      {
        // The Label page runs onnxruntime-web; multi-threaded WASM needs cross-origin isolation (SharedArrayBuffer).
        // Everything it loads is same-origin (the ort runtime in /ort, models and images through the app).
        source: "/label",
        headers: [
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
          { key: "Cross-Origin-Embedder-Policy", value: "require-corp" },
        ],
      },
      {
        // onnxruntime's WASM threads are module workers loaded from /ort: a worker is cross-origin isolated (and gets
        // SharedArrayBuffer) only when its own script carries the embedder policy.
        source: "/ort/:path*",
        headers: [
          { key: "Cross-Origin-Embedder-Policy", value: "require-corp" },
          { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
