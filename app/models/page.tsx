import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { env, hasSecret, KNOWN_SECRETS } from "@/lib/env";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { ModelForm } from "@/components/models/model-form";
import { defaultKeyEnv } from "@/lib/providers";

export const metadata: Metadata = { title: "Models" };

export default async function ModelsPage() {
  await connection();
  const models = await db().modelConfig.findMany({ where: { archived: false }, orderBy: [{ provider: "asc" }, { label: "asc" }] });
  const e = env();
  return (
    <>
      <PageHeader title="Models & settings" description="Models under audit and the server configuration. Keys are read from the server environment and never shown." />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Registered models" className="lg:col-span-2">
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
                  <Th>Key</Th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => {
                  const keyEnv = m.provider === "baseline" || m.provider === "import" ? null : (m.apiKeyEnv ?? defaultKeyEnv(m.provider));
                  const params = JSON.parse(m.paramsJson) as { temperature?: number; maxTokens?: number; description?: string; width?: number; height?: number; quality?: string };
                  return (
                    <tr key={m.id}>
                      <Td className="font-medium">
                        {m.label}
                        <span className="block font-mono text-xs font-normal text-slate-500">{m.slug}</span>
                      </Td>
                      <Td>
                        {m.provider === "baseline" ? <Badge tone="info">built-in baseline</Badge> : m.provider === "import" ? <Badge tone="neutral">import only</Badge> : m.provider}
                        <span className="block text-xs text-slate-500">{m.modality === "t2i" ? "text-to-image" : "LLM"}</span>
                      </Td>
                      <Td className="text-xs">
                        {m.provider === "baseline" ? params.description : m.modelId}
                        {m.baseUrl && <span className="block text-slate-500">{m.baseUrl}</span>}
                      </Td>
                      <Td className="whitespace-nowrap text-xs">
                        {m.provider === "baseline" || m.provider === "import"
                          ? "–"
                          : m.modality === "t2i"
                            ? `${params.width ?? 1024}×${params.height ?? 1024}${params.quality ? ` · ${params.quality}` : ""} · $${m.pricePerImage}/image · ×${m.concurrency}`
                            : `T=${params.temperature ?? 0} · max ${params.maxTokens ?? 64} tok · $${m.priceInputPer1k}/$${m.priceOutputPer1k} per 1k · ×${m.concurrency}`}
                      </Td>
                      <Td>
                        {keyEnv ? (
                          <Badge tone={hasSecret(keyEnv) ? "success" : "danger"}>
                            {keyEnv} {hasSecret(keyEnv) ? "configured" : "missing"}
                          </Badge>
                        ) : (
                          <span className="text-slate-400">none needed</span>
                        )}
                      </Td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          )}
        </Card>
        <Card title="Register or update a model" className="lg:col-span-2">
          <ModelForm />
        </Card>
        <Card title="Server configuration">
          <dl className="space-y-2 text-sm">
            {KNOWN_SECRETS.map((name) => (
              <div key={name} className="flex items-center justify-between gap-2">
                <dt className="font-mono text-xs">{name}</dt>
                <dd>
                  <Badge tone={hasSecret(name) ? "success" : "neutral"}>{hasSecret(name) ? "configured" : "not set"}</Badge>
                </dd>
              </div>
            ))}
            <div className="flex items-center justify-between gap-2">
              <dt className="font-mono text-xs">OPENAI_BASE_URL</dt>
              <dd className="text-xs text-slate-600">{e.OPENAI_BASE_URL ? "custom endpoint" : "OpenAI default"}</dd>
            </div>
            <div className="flex items-center justify-between gap-2">
              <dt className="font-mono text-xs">FOF_DATA_DIR</dt>
              <dd className="max-w-48 truncate text-xs text-slate-600" title={e.dataDir}>
                {e.dataDir}
              </dd>
            </div>
          </dl>
        </Card>
      </div>
    </>
  );
}
