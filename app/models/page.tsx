import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { declaredCredentials, hasSecret } from "@/lib/env";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { ModelForm } from "@/components/models/model-form";
import { ModelActions } from "@/components/models/model-actions";
import { credentialStatus } from "@/lib/providers";
import { pageGuard } from "@/app/guard";

import { modelProblem } from "@/lib/providers/problems";
import { modelPage } from "@/lib/features/runs/models";
import { CursorNav } from "@/components/ui/cursor-nav";
import { Alert } from "@/components/ui/alert";
export const metadata: Metadata = { title: "Models" };

/** A cursor from the address: one bounded string (a slug), else none. */
const slugParam = (v: string | string[] | undefined) => (typeof v === "string" && v.length <= 200 ? v : undefined);

export default async function ModelsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await pageGuard("models.manage", "/models");
  await connection();
  const sp = await searchParams;
  // Both lists page by key (a slug), never by offset, each with its own cursor.
  const [active, old] = await Promise.all([
    modelPage(db(), { archived: false, after: slugParam(sp.after), before: slugParam(sp.before) }),
    modelPage(db(), { archived: true, after: slugParam(sp.archivedAfter), before: slugParam(sp.archivedBefore), pageSize: 50 }),
  ]);
  const models = active.rows;
  const archived = old.rows;
  const credentials = declaredCredentials();
  return (
    <>
      <PageHeader
        title="Models & settings"
        description="Models under audit and the server configuration. Keys are declared by the operator in the server environment, each bound to the endpoints it may be sent to, and never shown."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title={`Registered models (${active.total})`} className="lg:col-span-2">
          {models.length === 0 ? (
            <EmptyState title="No models registered" />
          ) : (
            <Table>
              <thead>
                <tr>
                  <Th>Model</Th>
                  <Th>Provider</Th>
                  <Th>Model id / endpoint</Th>
                  <Th>Parameters</Th>
                  <Th>Credential</Th>
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => {
                  const key = credentialStatus(m);
                  const params = JSON.parse(m.paramsJson) as {
                    temperature?: number;
                    maxTokens?: number;
                    description?: string;
                    width?: number;
                    height?: number;
                    quality?: string;
                  };
                  return (
                    <tr key={m.id}>
                      <Td className="font-medium">
                        {m.label}
                        <span className="block font-mono text-xs font-normal text-slate-500">{m.slug}</span>
                      </Td>
                      <Td>
                        {m.provider === "baseline" ? (
                          <Badge tone="info">built-in baseline</Badge>
                        ) : m.provider === "import" ? (
                          <Badge tone="neutral">import only</Badge>
                        ) : (
                          m.provider
                        )}
                        <span className="block text-xs text-slate-500">{m.modality === "t2i" ? "text-to-image" : "LLM"}</span>
                      </Td>
                      <Td className="text-xs">
                        {m.provider === "baseline" ? params.description : m.modelId}
                        {modelProblem(m) && (
                          <Alert className="mt-1 max-w-md px-1.5 py-0.5 text-xs" role="status" data-testid="model-problem">
                            Cannot run: {modelProblem(m)}
                          </Alert>
                        )}
                        {m.baseUrl && <span className="block text-slate-500">{m.baseUrl}</span>}
                      </Td>
                      <Td className="whitespace-nowrap text-xs">
                        {m.provider === "baseline" || m.provider === "import"
                          ? "–"
                          : m.modality === "t2i"
                            ? `${params.width ?? 1024}×${params.height ?? 1024}${params.quality ? ` · ${params.quality}` : ""} · $${m.pricePerImage}/image · ×${m.concurrency}${m.requestsPerMinute ? ` · ${m.requestsPerMinute} req/min` : ""}`
                            : `T=${params.temperature ?? 0} · max ${params.maxTokens ?? 64} tok · $${m.priceInputPer1k}/$${m.priceOutputPer1k} per 1k · ×${m.concurrency}${m.requestsPerMinute ? ` · ${m.requestsPerMinute} req/min` : ""}${m.tokensPerMinute ? ` · ${m.tokensPerMinute} tok/min` : ""}`}
                      </Td>
                      <Td>
                        {key.problem ? (
                          <Badge tone="danger" title={key.problem}>
                            {key.name ?? "credential"}: {key.problem.includes("not set") ? "missing" : "not allowed"}
                          </Badge>
                        ) : key.name ? (
                          <Badge tone="success">{key.name} configured</Badge>
                        ) : (
                          <span className="text-slate-400">{m.provider === "openai-compatible" ? "no key sent" : "none needed"}</span>
                        )}
                        {key.problem && <span className="block max-w-56 text-xs text-rose-700">{key.problem}</span>}
                      </Td>
                      <Td>{m.provider === "baseline" ? null : <ModelActions slug={m.slug} archived={false} />}</Td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          )}
          <CursorNav
            label="Pages of models"
            prev={active.prev && `/models?before=${encodeURIComponent(active.prev)}`}
            next={active.next && `/models?after=${encodeURIComponent(active.next)}`}
          />
        </Card>
        <Card title="Register or update a model" className="lg:col-span-2">
          <ModelForm credentials={credentials.map((c) => c.name)} />
        </Card>
        {archived.length > 0 && (
          <Card title={`Archived models (${old.total})`} className="lg:col-span-2">
            <ul className="divide-y divide-slate-100 text-sm">
              {archived.map((m) => (
                <li key={m.id} className="flex items-center justify-between gap-2 py-1.5">
                  <span>
                    {m.label} <span className="font-mono text-xs text-slate-500">{m.slug}</span>
                  </span>
                  <ModelActions slug={m.slug} archived />
                </li>
              ))}
            </ul>
            <CursorNav
              label="Pages of archived models"
              prev={old.prev && `/models?archivedBefore=${encodeURIComponent(old.prev)}`}
              next={old.next && `/models?archivedAfter=${encodeURIComponent(old.next)}`}
            />
          </Card>
        )}
        <Card
          title="Server configuration"
          description="Credentials the operator declared (FOF_CREDENTIALS, OPENAI_API_KEY, REPLICATE_API_TOKEN) and the endpoints each may be sent to."
        >
          <dl className="space-y-2 text-sm" data-testid="credentials">
            {credentials.map((c) => (
              <div key={c.name}>
                <div className="flex items-center justify-between gap-2">
                  <dt className="font-mono text-xs">{c.name}</dt>
                  <dd>
                    <Badge tone={hasSecret(c.name) ? "success" : "neutral"}>{hasSecret(c.name) ? "configured" : "not set"}</Badge>
                  </dd>
                </div>
                <dd className="text-xs break-all text-slate-500">only to {c.urls.join(", ")}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </>
  );
}
