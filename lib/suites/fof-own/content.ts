// What a content-set run plans from and is scored from: a validated content-set declaration with its identity. The
// version a run pins is "<set id>@<version>" (BenchmarkVersion.version is unique across suites) and its sha256 is the
// declaration's canonical hash (lib/content/canonical.ts), the very one the ContentSetVersion row carries.
import { benchmark } from "../../benchmark";
import { canonicalContent } from "../../content/canonical";
import { paperContentSet } from "../../content/paper";
import { contentSetSchema, type ContentSetInput } from "../../content/schema";
import { contentSetStatus } from "../../content/status";
import { DomainError, notFound } from "../../core/errors";
import type { PrismaClient } from "../../../generated/prisma/client";

export interface OwnContent {
  /** "<set id>@<version>" */
  version: string;
  sha256: string;
  set: ContentSetInput;
}

const contentRef = (set: Pick<ContentSetInput, "id" | "version">) => `${set.id}@${set.version}`;

export function ownContent(set: ContentSetInput): OwnContent {
  return { version: contentRef(set), sha256: canonicalContent(set).sha256, set };
}

let paper: OwnContent | null = null;
/** The shipped content: the paper's 19 statistics as a content set (the method's reference, launchable as is). */
export function paperOwnContent(): OwnContent {
  return (paper ??= ownContent(paperContentSet(benchmark)));
}

/** Content as pinned with a run: parsed and validated again (a hand-edited row is refused, not half-read). */
export function parsePinned(json: string): OwnContent {
  const raw = JSON.parse(json) as { version?: unknown; sha256?: unknown; set?: unknown };
  const set = contentSetSchema.parse(raw.set);
  const own = ownContent(set);
  if (raw.sha256 !== own.sha256) throw new Error(`pinned content ${String(raw.version)} does not hash to its recorded sha256`);
  return own;
}

/**
 * The content of "<set>@<version>" a runner may launch on now: a stored, approved version (a draft waits for an
 * admin; a retired one takes no new runs). The shipped paper set needs no approval.
 */
export async function launchableContent(prisma: PrismaClient, ref: string): Promise<OwnContent> {
  const shipped = paperOwnContent();
  if (ref === shipped.version) return shipped;
  const m = /^([a-z0-9]+(?:-[a-z0-9]+)*)@(\d+\.\d+\.\d+)$/.exec(ref);
  if (!m) throw new DomainError("invalid", `content "${ref}" is not a content-set version: write it as <set id>@<version>, e.g. my-set@1.0.0`);
  const row = await prisma.contentSetVersion.findUnique({
    where: { setId_version: { setId: m[1], version: m[2] } },
    select: { status: true, contentJson: true, sha256: true },
  });
  if (!row) throw notFound(`content set version ${ref}`);
  const status = contentSetStatus(row.status);
  if (status === "draft") throw new DomainError("forbidden", `content set ${ref} is a draft: an admin must approve it before runs launch on it`);
  if (status === "retired") throw new DomainError("forbidden", `content set ${ref} is retired: it takes no new runs (runs on it keep their scores)`);
  const own = ownContent(contentSetSchema.parse(JSON.parse(row.contentJson)));
  if (own.sha256 !== row.sha256) throw new Error(`content set ${ref} does not hash to its stored sha256`);
  return own;
}
