// Storing a team's content sets (issue #57): import a validated folder as a new immutable version (the same content
// again finds its version; other content under an existing version number is refused — bump it), with the diff
// against the set's latest version; list them; approve and retire (admins, or the machine's operator at the CLI),
// each change audited in the same transaction as the change.
import type { PrismaClient } from "../../../generated/prisma/client";
import { DomainError, badRequest, notFound } from "../../core/errors";
import { actorOf, audit } from "../../auth/audit";
import { can, type Role } from "../../auth/roles";
import { withContentionRetry } from "../../db/retry";
import { canonicalContent } from "../../content/canonical";
import { diffContent, type ContentDiff } from "../../content/diff";
import { contentFromFiles } from "../../content/load";
import { contentSetSchema, type ContentSetInput } from "../../content/schema";
import { CONTENT_SET_TRANSITIONS, contentSetStatus, type ContentSetStatus } from "../../content/status";

/** Who acts: an account with its role, or null for the machine's operator (the CLI on the database's host). */
export interface ContentActor {
  id: string;
  email: string;
  role: Role;
  token?: { id: string; name: string } | null;
  /** the client address of the request (audited) */
  address?: string | null;
}

export interface ContentSetVersionInfo {
  setId: string;
  version: string;
  sha256: string;
  title: string;
  language: string;
  status: ContentSetStatus;
  createdBy: string;
  createdAt: string;
  approvedBy: string | null;
  approvedAt: string | null;
  retiredAt: string | null;
}

type Row = {
  setId: string;
  version: string;
  sha256: string;
  title: string;
  language: string;
  status: string;
  createdBy: string;
  createdAt: Date;
  approvedBy: string | null;
  approvedAt: Date | null;
  retiredAt: Date | null;
};
const SELECT = {
  setId: true,
  version: true,
  sha256: true,
  title: true,
  language: true,
  status: true,
  createdBy: true,
  createdAt: true,
  approvedBy: true,
  approvedAt: true,
  retiredAt: true,
} as const;
const info = (r: Row): ContentSetVersionInfo => ({
  ...r,
  status: contentSetStatus(r.status),
  createdAt: r.createdAt.toISOString(),
  approvedAt: r.approvedAt?.toISOString() ?? null,
  retiredAt: r.retiredAt?.toISOString() ?? null,
});

const semver = (v: string) => v.split(".").map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

/** Validates files (content.json, statistics.csv, scenarios.csv) and stores them as a version, or finds it; dryRun only diffs. */
export async function importContentSet(
  prisma: PrismaClient,
  actor: ContentActor | null,
  files: Record<string, string>,
  opts: { dryRun?: boolean; preset?: string } = {},
): Promise<{ version: ContentSetVersionInfo | null; created: boolean; diff: ContentDiff | null; against: string | null }> {
  if (actor && !can(actor.role, "content.author")) throw new DomainError("forbidden", "importing content needs the runner or admin role");
  const { set } = contentFromFiles(files, { preset: opts.preset });
  const { json, sha256 } = canonicalContent(set);
  const existing = await prisma.contentSetVersion.findUnique({ where: { sha256 }, select: SELECT });
  if (existing) return { version: info(existing), created: false, diff: null, against: null };
  const sameNumber = await prisma.contentSetVersion.findUnique({ where: { setId_version: { setId: set.id, version: set.version } }, select: { sha256: true } });
  if (sameNumber)
    throw badRequest(`content set ${set.id} ${set.version} is already stored with other content: a version never changes — give this one a higher version`);
  const latest = await prisma.contentSetVersion.findFirst({
    where: { setId: set.id },
    orderBy: { createdAt: "desc" },
    select: { version: true, contentJson: true },
  });
  if (latest && !newer(set.version, latest.version))
    throw badRequest(`content set ${set.id}: version ${set.version} must be higher than the latest, ${latest.version}`);
  const diff = latest ? diffContent(parseStored(latest.contentJson), set) : null;
  if (opts.dryRun) return { version: null, created: false, diff, against: latest?.version ?? null };
  const row = await withContentionRetry(() =>
    prisma.$transaction(async (tx) => {
      const created = await tx.contentSetVersion.create({
        data: {
          setId: set.id,
          version: set.version,
          sha256,
          contentJson: json,
          language: set.language,
          title: set.title,
          createdById: actor?.id ?? null,
          createdBy: actor?.email ?? "operator (cli)",
        },
        select: SELECT,
      });
      await audit(tx, {
        ...auditActor(actor),
        action: "content-set.import",
        targetType: "content-set",
        targetId: `${set.id}@${set.version}`,
        details: { sha256, via: actor ? "api" : "cli" },
      });
      return created;
    }),
  );
  return { version: info(row), created: true, diff, against: latest?.version ?? null };
}

const auditActor = (actor: ContentActor | null) => {
  const a = actorOf(actor);
  return { userId: a.userId, token: a.token, ip: a.ip };
};

/** A stored declaration, parsed again (it was validated when stored; the schema still guards a hand-edited row). */
// A stored version never changes (its SHA-256 names its bytes): parsed once per process, not at every read (a
// viewer's read of a paper-size set re-validated it for ~200 ms on the request thread, refused or not).
const parsedVersions = new Map<string, ContentSetInput>();
const PARSED_KEEP = 32;

function parseStored(json: string, sha256?: string): ContentSetInput {
  const hit = sha256 ? parsedVersions.get(sha256) : undefined;
  if (hit) return hit;
  const set = contentSetSchema.parse(JSON.parse(json));
  if (sha256) {
    parsedVersions.set(sha256, set);
    if (parsedVersions.size > PARSED_KEEP) parsedVersions.delete(parsedVersions.keys().next().value!);
  }
  return set;
}

export async function listContentSets(prisma: PrismaClient, setId?: string): Promise<ContentSetVersionInfo[]> {
  const rows = await prisma.contentSetVersion.findMany({
    where: setId ? { setId } : {},
    orderBy: [{ setId: "asc" }, { createdAt: "desc" }],
    take: 200,
    select: SELECT,
  });
  return rows.map(info);
}

/** One stored version with its declaration (for the page that shows it, its prompts and its diff). */
export async function getContentSet(prisma: PrismaClient, ref: string): Promise<{ version: ContentSetVersionInfo; set: ContentSetInput }> {
  const { setId, version } = parseRef(ref);
  const row = await prisma.contentSetVersion.findUnique({ where: { setId_version: { setId, version } }, select: { ...SELECT, contentJson: true } });
  if (!row) throw notFound(`content set ${ref}`);
  const { contentJson, ...rest } = row;
  return { version: info(rest), set: parseStored(contentJson, rest.sha256) };
}

/** "id@version" → its parts. */
function parseRef(ref: string): { setId: string; version: string } {
  const m = /^([a-z0-9]+(?:-[a-z0-9]+)*)@(\d+\.\d+\.\d+)$/.exec(ref.trim());
  if (!m) throw badRequest(`"${ref}" is not a content-set version: write <set id>@<version>, e.g. de-arbeitsmarkt@1.0.0`);
  return { setId: m[1], version: m[2] };
}

/** Approve (draft → approved) or retire (→ retired) a version: admins only, or the operator. */
export async function setContentSetStatus(
  prisma: PrismaClient,
  actor: ContentActor | null,
  ref: string,
  action: "approve" | "retire",
): Promise<ContentSetVersionInfo> {
  if (actor && !can(actor.role, "content.approve")) throw new DomainError("forbidden", `only an admin may ${action} a content set`);
  const { setId, version } = parseRef(ref);
  const who = actor?.email ?? "operator (cli)";
  return withContentionRetry(() =>
    prisma.$transaction(async (tx) => {
      const row = await tx.contentSetVersion.findUnique({ where: { setId_version: { setId, version } }, select: { id: true, status: true } });
      if (!row) throw notFound(`content set ${ref}`);
      const from = CONTENT_SET_TRANSITIONS[action];
      if (!from.includes(row.status as ContentSetStatus)) throw badRequest(`cannot ${action} content set ${ref}: it is ${row.status}`);
      // Conditional on the state read, so two admins racing make one change.
      const now = new Date();
      const changed = await tx.contentSetVersion.updateMany({
        where: { id: row.id, status: row.status },
        data: action === "approve" ? { status: "approved", approvedBy: who, approvedAt: now } : { status: "retired", retiredBy: who, retiredAt: now },
      });
      if (changed.count !== 1) throw badRequest(`content set ${ref} changed meanwhile: try again`);
      await audit(tx, {
        ...auditActor(actor),
        action: action === "approve" ? "content-set.approve" : "content-set.retire",
        targetType: "content-set",
        targetId: ref,
        details: { from: row.status, via: actor ? "api" : "cli" },
      });
      return info(await tx.contentSetVersion.findUniqueOrThrow({ where: { id: row.id }, select: SELECT }));
    }),
  );
}
