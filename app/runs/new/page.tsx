import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { hasSecret } from "@/lib/env";
import { defaultKeyEnv } from "@/lib/providers";
import { PageHeader } from "@/components/ui/page-header";
import { LaunchForm } from "@/components/runs/launch-form";

export const metadata: Metadata = { title: "Launch a run" };

export default async function NewRunPage() {
  await connection();
  const models = await db().modelConfig.findMany({ where: { archived: false, modality: "llm" }, orderBy: [{ provider: "asc" }, { label: "asc" }] });
  return (
    <>
      <PageHeader title="Launch a run" description="Every query is planned and stored before the first call; the run survives restarts." />
      <LaunchForm
        defaultSeed={1}
        models={models.map((m) => {
          const keyEnv = m.provider === "baseline" ? null : (m.apiKeyEnv ?? defaultKeyEnv(m.provider));
          return {
            slug: m.slug,
            label: m.label,
            provider: m.provider,
            priceInputPer1k: m.priceInputPer1k,
            priceOutputPer1k: m.priceOutputPer1k,
            keyMissing: keyEnv && m.provider !== "openai-compatible" && !hasSecret(keyEnv) ? keyEnv : null,
          };
        })}
      />
    </>
  );
}
