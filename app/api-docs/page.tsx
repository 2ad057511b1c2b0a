import type { Metadata } from "next";
import Link from "next/link";
import { pageGuard } from "@/app/guard";
import { openApiDocument } from "@/lib/server/api/openapi";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { publicKeyInfo } from "@/lib/features/ledger/keys";

export const metadata: Metadata = { title: "API reference" };

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
};
type Operation = {
  summary: string;
  description?: string;
  "x-permission": string;
  parameters: Array<{ name: string; in: string; required: boolean; description?: string; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string }>;
};

const typeOf = (s: Schema): string =>
  s.enum ? s.enum.map((v) => JSON.stringify(v)).join(" | ") : s.type === "array" && s.items ? `${typeOf(s.items)}[]` : [s.type ?? "any"].flat().join(" | ");

function Fields({ rows }: { rows: Array<{ name: string; where: string; required: boolean; schema: Schema; description?: string }> }) {
  if (!rows.length) return null;
  return (
    <ul className="mt-2 space-y-0.5 text-xs">
      {rows.map((r) => (
        <li key={`${r.where}-${r.name}`}>
          <code className="font-semibold">{r.name}</code>{" "}
          <span className="text-slate-500">
            ({r.where}
            {r.required ? ", required" : ""})
          </span>{" "}
          <code>{typeOf(r.schema)}</code>
          {r.schema.default !== undefined && <span className="text-slate-500"> = {JSON.stringify(r.schema.default)}</span>}
          {(r.description ?? r.schema.description) && <span className="text-slate-600"> — {r.description ?? r.schema.description}</span>}
        </li>
      ))}
    </ul>
  );
}

/** The /api/v1 reference, rendered from the same document /api/v1/openapi.json serves. */
export default async function ApiDocsPage() {
  await pageGuard("signed-in", "/api-docs");
  const doc = openApiDocument();
  const key = publicKeyInfo();
  return (
    <>
      <PageHeader
        title="API reference"
        description="Runs, scores, exports, models and imports over HTTP, for CI and scripts. Send a personal access token (Account page or `fof token create`) as Authorization: Bearer …; errors are { error, code, problems? }."
        actions={
          <a className="text-sm text-indigo-700 underline" href="/api/v1/openapi.json">
            openapi.json
          </a>
        }
      />
      <p className="text-sm text-slate-600">
        Make a token on your{" "}
        <Link href="/account" className="text-indigo-700 underline">
          Account
        </Link>{" "}
        page. The remote CLI uses the same routes: <code>FOF_SERVER=… FOF_TOKEN=… fof run -m &lt;model&gt; --wait --fail-under &quot;d&lt;=0.25&quot;</code>.
      </p>
      <Card>
        <h2 className="text-sm font-semibold">Evidence signing key</h2>
        <p className="text-xs text-slate-600">
          Evidence bundles (a run&apos;s <b>Evidence bundle (signed)</b> download, <code>fof bundle</code>) are signed with this Ed25519 key; an outsider checks
          one with <code>fof verify audit.zip --key workbench.pem</code>, the key from{" "}
          <a className="text-indigo-700 underline" href="/.well-known/fof-evidence-key?format=pem">
            /.well-known/fof-evidence-key
          </a>
          , or in a browser at{" "}
          <Link className="text-indigo-700 underline" href="/verify">
            /verify
          </Link>
          . Key id <code data-testid="evidence-key-id">{key.keyid}</code>.
        </p>
        <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-xs">{key.pem}</pre>
      </Card>
      {Object.entries(doc.paths).map(([p, ops]) =>
        Object.entries(ops as Record<string, Operation>).map(([method, op]) => {
          const body = op.requestBody?.content["application/json"]?.schema;
          const rows = [
            ...op.parameters.map((x) => ({ name: x.name, where: x.in, required: x.required, schema: x.schema, description: x.description })),
            ...Object.entries(body?.properties ?? {}).map(([name, schema]) => ({
              name,
              where: "body",
              required: (body?.required ?? []).includes(name),
              schema,
            })),
          ];
          return (
            <Card
              key={`${method} ${p}`}
              title={
                <span className="flex flex-wrap items-center gap-2 font-mono text-sm">
                  <Badge tone={method === "get" ? "info" : "warning"}>{method.toUpperCase()}</Badge> {p}
                </span>
              }
              description={op.summary}
            >
              {op.description && <p className="text-sm text-slate-700">{op.description}</p>}
              <p className="text-xs text-slate-500">
                Permission: <code>{op["x-permission"]}</code> · Answers:{" "}
                {Object.entries(op.responses)
                  .filter(([code]) => code !== "default")
                  .map(([code, r]) => `${code} ${r.description}`)
                  .join("; ")}
              </p>
              <Fields rows={rows} />
            </Card>
          );
        }),
      )}
    </>
  );
}
