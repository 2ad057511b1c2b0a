import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { env, hasSecret, KNOWN_SECRETS } from "@/lib/env";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";

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
                  <Th>Modality</Th>
                  <Th>Key</Th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => (
                  <tr key={m.id}>
                    <Td className="font-medium">{m.label}</Td>
                    <Td>{m.provider}</Td>
                    <Td>{m.modality}</Td>
                    <Td>
                      {m.apiKeyEnv ? (
                        <Badge tone={hasSecret(m.apiKeyEnv) ? "success" : "danger"}>
                          {m.apiKeyEnv} {hasSecret(m.apiKeyEnv) ? "configured" : "missing"}
                        </Badge>
                      ) : (
                        <span className="text-slate-400">none needed</span>
                      )}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
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
