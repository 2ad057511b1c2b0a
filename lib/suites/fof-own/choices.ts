// What the launch form offers and tells about a content-set run: the versions a runner may launch on (the shipped
// paper set, then every approved version, newest first), and the expected 95 % half-width of each score a config
// reaches on a set (lib/content/plan.ts: the intervals' simulation on the set's own design), cached per content
// and repeats so a form that changes as one types asks the simulation once.
import type { PrismaClient } from "../../../generated/prisma/client";
import { planContent } from "../../content/plan";
import type { ContentChoice, LaunchPrecision } from "../types";
import type { OwnConfig } from "./config";
import { paperOwnContent, type OwnContent } from "./content";
import { contentSetSchema } from "../../content/schema";
import { declaredContexts } from "../../content/render";

export async function ownContentChoices(prisma: PrismaClient): Promise<ContentChoice[]> {
  const paper = paperOwnContent();
  const rows = await prisma.contentSetVersion.findMany({
    where: { status: "approved" },
    orderBy: [{ setId: "asc" }, { createdAt: "desc" }],
    take: 200,
    select: { setId: true, version: true, title: true, language: true, contentJson: true },
  });
  // the contexts each set declares: the form offers only those (a set without contexts: the baseline alone)
  const contexts = (json: string) => {
    try {
      return { contexts: declaredContexts(contentSetSchema.parse(JSON.parse(json))) as string[] };
    } catch {
      return undefined;
    }
  };
  return [
    { version: paper.version, label: `${paper.version} — the paper's 19 U.S. statistics (shipped)` },
    ...rows.map((r) => ({
      version: `${r.setId}@${r.version}`,
      label: `${r.setId}@${r.version} — ${r.title} (${r.language})`,
      limits: contexts(r.contentJson),
    })),
  ];
}

const CACHE_SIZE = 32;
const cache = new Map<string, LaunchPrecision>();

export function ownPrecision(config: OwnConfig, content: OwnContent): LaunchPrecision | null {
  if (!config.tests.includes("subjective") && !config.tests.includes("objective")) return null;
  const key = JSON.stringify([content.sha256, config.objectiveRepeats, config.subjectiveRepeats, [...config.contexts].sort()]);
  const hit = cache.get(key);
  if (hit) return hit;
  const plan = planContent(content.set, config, { runs: 6, contexts: config.contexts });
  const out: LaunchPrecision = {
    target: 0.05,
    attributes: plan.attributes.map((a) => ({ attribute: a.attribute, k: a.k, halfWidth: a.halfWidth, meetsTarget: a.meetsTarget })),
    warnings: plan.warnings,
  };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out;
}
