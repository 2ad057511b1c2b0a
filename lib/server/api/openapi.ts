// The versioned HTTP API (/api/v1) described once: every route with its permission, its request shapes (the zod
// schemas the handlers parse with, turned into JSON Schema) and what it answers. /api/v1/openapi.json serves the
// document built from this table, the reference page renders it, and a test checks that every route file under
// app/api/v1 is listed here (and nothing else is).
import { z } from "zod";
import { logConsistencyQuery, logEntriesQuery, logProofQuery } from "./log";
import { contentSetImportBody, contentSetListQuery, contentSetReadQuery } from "./content-sets";
import type { ApiRoute } from "./route-types";
import { EXPLANATION_ROUTES } from "./explanations";
import {
  compareQuery,
  exportQuery,
  importOpenBody,
  launchRequestSchema,
  modelListQuery,
  runListQuery,
  runSummaryQuery,
  scoresQuery,
  steerBody,
} from "./schemas";

const API_VERSION = "1.0.0";

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: "get",
    path: "/api/v1/runs",
    access: "results.read",
    summary: "List runs of every suite, newest first",
    query: runListQuery,
    ok: {
      status: 200,
      description:
        "{ runs: [{ id, name, suite, modality, status, preset, seed, plannedCount, budgetUsd, spentUsd, models, createdAt, … }], next: the id to pass as `before` for the next page, or null }",
    },
  },
  {
    method: "post",
    path: "/api/v1/runs",
    access: "runs.manage",
    summary: "Launch a run",
    description:
      "Checks the launch (its preset's settings with `config` over them, checked by the suite; the size cap; the budget within the caller's spending limit), creates the run and answers at once, whatever its size: the run is in `planning` with `plannedCount` its size, and its queries are written in the background (calls start as they are). A refused launch creates nothing. Follow it with GET /api/v1/runs/{id}.",
    body: launchRequestSchema,
    ok: { status: 202, description: '{ run: { id, name, suite, status: "planning", plannedCount, … } }' },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}",
    access: "results.read",
    summary: "A run's summary: status, outcome, progress, spend, worker health, scores",
    query: runSummaryQuery,
    ok: { status: 200, description: "the run summary (the run page's data)" },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/scores",
    access: "results.read",
    summary: "A run's scores as JSON, in the `fof score` shape (other suites: their result tables), with label provenance",
    query: scoresQuery,
    ok: { status: 200, description: "scores JSON" },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/export",
    access: "results.read",
    summary: "A run's data: JSONL interchange lines (data.export), or its scores as JSON or CSV",
    query: exportQuery,
    ok: { status: 200, description: "a file", contentTypes: ["application/x-ndjson", "application/json", "text/csv"] },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/bundle",
    access: "data.export",
    summary: "A run's signed evidence bundle (zip): configuration, content, every query and answer, scores, manifest, DSSE-signed in-toto Statement",
    description:
      "Any suite, chat or text-to-image (image hashes, faces, labels and their provenance, reviews with annotators as pseudonyms). Check it offline with `fof verify <bundle> --key <public key>` (the key: GET /.well-known/fof-evidence-key) or at /verify in a browser. Bundles are written one at a time per server, in the order asked, at most one per account: the same account asking again meanwhile is answered 429 rate_limited (try again); another account's request waits its turn (503 unavailable when 16 wait). docs/evidence.md describes the files and the predicate.",
    ok: { status: 200, description: "a zip archive", contentTypes: ["application/zip"] },
  },
  {
    method: "get",
    path: "/api/v1/runs/{id}/design",
    access: "results.read",
    summary: "A run's design statement: signed at launch, before any provider call, and appended to the transparency log",
    description:
      "An in-toto Statement (predicate https://fact-or-fair.dev/evidence/design/v1) in a DSSE envelope signed with the workbench's evidence key: content and its digest, the models' declared identities and settings, configuration, seed, preset, planned count, stopping rule, budget, launch time, the launcher's pseudonym. With its inclusion proof in the log now and that tree's signed checkpoint. Hold it before results exist; check a bundle against it later with `fof verify --design`. docs/evidence.md.",
    ok: { status: 200, description: "{ design: DSSE envelope, log: { index, size, leafHash, proof: [hex], checkpoint: DSSE envelope } }" },
  },
  {
    method: "get",
    path: "/api/v1/log/checkpoint",
    access: "public",
    summary: "The transparency log's signed checkpoint now (size, RFC 9162 root hash, time)",
    description:
      "Public: hashes only. Keep one; a later checkpoint and GET /api/v1/log/consistency prove the log only grew in between (`fof log consistency OLD NEW`).",
    ok: { status: 200, description: "{ checkpoint: { origin, size, rootHash, time }, envelope: DSSE envelope of the checkpoint }" },
  },
  {
    method: "get",
    path: "/api/v1/log/proof",
    access: "public",
    summary: "A run's design statement's inclusion proof in the log (RFC 9162)",
    query: logProofQuery,
    ok: { status: 200, description: "{ index, size, leafHash, proof: [hex], checkpoint: DSSE envelope }" },
  },
  {
    method: "get",
    path: "/api/v1/log/consistency",
    access: "public",
    summary: "The consistency proof that the log of size `from` is a prefix of the log of size `to` (RFC 9162)",
    query: logConsistencyQuery,
    ok: { status: 200, description: "{ from, to, proof: [hex] }" },
  },
  {
    method: "get",
    path: "/api/v1/log/entries",
    access: "results.read",
    summary: "The log's entries between two indices: each run launched, its models and its signed design statement",
    query: logEntriesQuery,
    ok: { status: 200, description: "{ entries: [{ index, runId, kind, models, leafHash, createdAt, body }] }" },
  },
  {
    method: "get",
    path: "/api/v1/compare",
    access: "results.read",
    summary: "Is B different from A? Every score of every group both sides (two runs of one suite) have, B − A with an interval and p-values",
    description:
      "Δ = B − A per score and group with a 95 % interval (bias-corrected, from a stratified cluster bootstrap that draws the same scenarios for both sides when they answered the same content: `paired`), a two-sided p-value (the bootstrap test that agrees with the interval; objective S_fact on the same questions: the exact McNemar test) and Holm's adjustment over the whole family. `separable`: adjusted p < 0.05 and both sides' intervals keep their coverage promise. FACT-OR-FAIR: computed once per state of both sides' data, then cached. Suites whose scores are averages over images (per-image scores per dimension and method, say) compare those averages, resampling their entries (the same entries for both sides when they ran the same content); FAIntbench compares Table 2's scores (implicit, explicit, η) per level, resampling its prompts (η: pairs), the same ones for both sides when they ran the same content; a suite that offers no comparisons answers 400 saying so.",
    query: compareQuery,
    ok: {
      status: 200,
      description:
        "{ suite, a, b, target, paired, pairing, items, comparisons: [{ metric, metricName?, group, a, b (each side's bias-corrected value: delta = b − a), aPlugIn, bPlugIn (the tables' plug-ins), delta, lo, hi, p, pAdjusted, paired, separable, better, testUsed, flags, sentence }], labellerWarnings: [sentence] (text-to-image: where FairFace misreads one group separably more often than another on the runs' reviewed faces) }",
    },
  },
  ...(["pause", "resume", "cancel"] as const).map((action): ApiRoute => ({
    method: "post",
    path: `/api/v1/runs/{id}/${action}`,
    access: "runs.manage",
    summary: `${action[0].toUpperCase()}${action.slice(1)} a run (its owner, or a role that steers any run), while it is planning too`,
    body: steerBody,
    ok: { status: 200, description: "{ run: { id, status, budgetUsd } }" },
  })),
  {
    method: "get",
    path: "/api/v1/models",
    access: "results.read",
    summary: "Registered models, a page at a time in slug order (never a secret: a credential is named, not shown)",
    query: modelListQuery,
    ok: {
      status: 200,
      description: "{ models: [{ slug, label, modality, provider, archived }], next: the slug to pass as `after` for the next page, or null }",
    },
  },
  {
    method: "get",
    path: "/api/v1/suites",
    access: "results.read",
    summary: "The suites, their launch forms and presets (what POST /api/v1/runs accepts)",
    ok: { status: 200, description: "{ suites: [{ id, name, summary, variants: [{ id, label, presets, defaultPreset }] }] }" },
  },
  {
    method: "get",
    path: "/api/v1/content-sets",
    access: "results.read",
    summary: "List content-set versions (a team's own FACT-OR-FAIR content), newest first per set",
    query: contentSetListQuery,
    ok: {
      status: 200,
      description: "{ versions: [{ setId, version, sha256, title, language, status: draft | approved | retired, createdBy, createdAt, approvedBy, … }] }",
    },
  },
  {
    method: "post",
    path: "/api/v1/content-sets",
    access: "content.author",
    summary: "Import a content set's files as a new draft version (or, with dryRun, validate and diff only)",
    description:
      "All or nothing: a file refused anywhere stores nothing and answers 400 with `problems` naming each file, row and field. The same content again finds its stored version; other content under a stored version number, or a lower number than the latest, is refused. The answer carries the diff against the set's latest version (statistics, scenarios, prompts for seed 0).",
    body: contentSetImportBody,
    ok: {
      status: 200,
      description:
        '{ version: { setId, version, status: "draft", … } | null (dryRun), created, diff, against, prompts (dryRun: { seed, total, shown, items }) }',
    },
  },
  {
    method: "get",
    path: "/api/v1/content-sets/{ref}",
    access: "results.read",
    summary: "One content-set version (ref = <set id>@<version>): its declaration, the prompts it sends for a seed, and optionally its plan for a preset",
    query: contentSetReadQuery,
    ok: {
      status: 200,
      description: "{ version, content, prompts: { seed, total, shown, items: [{ key, test, statisticId, level, attribute, context, prompt }] }, plan }",
    },
  },
  ...(["approve", "retire"] as const).map((action): ApiRoute => ({
    method: "post",
    path: `/api/v1/content-sets/{ref}/${action}`,
    access: "content.approve",
    summary:
      action === "approve"
        ? "Approve a draft content-set version: runners may then launch on it (audited)"
        : "Retire a content-set version: it takes no new runs, runs on it keep their scores (audited)",
    body: z.strictObject({}),
    ok: { status: 200, description: "{ version: { setId, version, status, approvedBy, approvedAt, retiredAt, … } }" },
  })),
  {
    method: "post",
    path: "/api/v1/imports",
    access: "images.import",
    summary: "Open an image import (then PUT each file, then commit once)",
    body: importOpenBody,
    ok: { status: 201, description: "{ uploadId }" },
  },
  {
    method: "put",
    path: "/api/v1/imports/{id}/files",
    access: "images.import",
    summary: "Stream one file (an image or a zip) of an import; `name` is its path inside the selection",
    query: z.strictObject({ name: z.string().min(1).max(500) }),
    rawBody: "application/octet-stream",
    ok: { status: 200, description: "{ name, bytes }" },
  },
  {
    method: "post",
    path: "/api/v1/imports/{id}/commit",
    access: "images.import",
    summary: "Check every file and store the import as a run, all or nothing",
    body: z.strictObject({}).describe("an empty JSON object (every write sends JSON)"),
    ok: { status: 200, description: "{ runId, imported, skipped, mappedBy }; 422 with `problems` naming each bad file" },
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    access: "public",
    summary: "This document",
    ok: { status: 200, description: "OpenAPI 3.1" },
  },
  ...EXPLANATION_ROUTES,
];

const ERROR = {
  type: "object",
  required: ["error", "code"],
  properties: {
    error: { type: "string", description: "what went wrong, in words a person can act on" },
    code: {
      type: "string",
      enum: [
        "invalid",
        "unauthenticated",
        "forbidden",
        "not_found",
        "conflict",
        "gone",
        "too_large",
        "unsupported_media_type",
        "unprocessable",
        "rate_limited",
        "unavailable",
      ],
    },
    problems: {
      type: "array",
      items: { type: "object", required: ["name", "message"], properties: { name: { type: "string" }, message: { type: "string" } } },
    },
  },
};

function jsonSchema(schema: z.ZodType) {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

/** Query parameters from an object schema: one parameter per property. */
function queryParameters(schema: z.ZodType) {
  const s = jsonSchema(schema) as { properties?: Record<string, { description?: string }>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, prop]) => ({
    name,
    in: "query",
    required: (s.required ?? []).includes(name) && !("default" in prop),
    ...(prop.description ? { description: prop.description } : {}),
    schema: prop,
  }));
}

/** The OpenAPI 3.1 document of /api/v1. */
export function openApiDocument(serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of API_ROUTES) {
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
    const responses: Record<string, unknown> = {
      [r.ok.status]: {
        description: r.ok.description,
        content: Object.fromEntries((r.ok.contentTypes ?? ["application/json"]).map((t) => [t, {}])),
      },
      default: { description: "an error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    };
    paths[r.path] = {
      ...paths[r.path],
      [r.method]: {
        operationId: `${r.method}${r.path
          .replace(/^\/api\/v1/, "")
          .replace(/[{}]/g, "")
          .replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
        summary: r.summary,
        ...(r.description ? { description: r.description } : {}),
        "x-permission": r.access,
        ...(r.access === "public" ? { security: [] } : {}),
        parameters: [...params, ...(r.query ? queryParameters(r.query) : [])],
        ...(r.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(r.body) } } } } : {}),
        ...(r.rawBody ? { requestBody: { required: true, content: { [r.rawBody]: { schema: { type: "string", format: "binary" } } } } } : {}),
        responses,
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "FACT-OR-FAIR workbench API",
      version: API_VERSION,
      description:
        "Runs, scores, exports, models and image imports of every suite. Authenticate with a personal access token (`Authorization: Bearer fof_…`, from the Account page or `fof token create`) or a browser session. Each operation's `x-permission` names what the caller's role (and the token's) must allow.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "a personal access token" },
        session: { type: "apiKey", in: "cookie", name: "better-auth.session_token" },
      },
      schemas: { Error: ERROR },
    },
    paths,
  };
}
