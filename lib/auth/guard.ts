// The one authorisation decision: who is asking (a personal access token in `Authorization: Bearer`, else the
// better-auth session; either re-read from the database so a disabled account, a changed role or a revoked token
// counts at once) and whether their role may do this. Used by every route handler (lib/server/http.ts), every server
// action and every page. Server-only.
import { DomainError } from "../core/errors";
import { db } from "../db";
import { auth } from "./server";
import { can, type Permission, type Role } from "./roles";
import { roleWithin, tokenOwner, type TokenIdentity } from "./tokens";
import { clientFromHeaders } from "./client-address";
import { recordTokenFailure, tokenAttemptsBlockedFor } from "./token-limit";

export interface Viewer {
  id: string;
  email: string;
  name: string;
  /**
   * The role this request acts with, the one every permission decision reads: the account's role, or — for a request
   * with a personal access token limited to a lower role — the token's.
   */
  role: Role;
  /** the account's own role (differs from `role` only for a limited token) */
  accountRole: Role;
  spendingLimitUsd: number | null;
  /** set when the request came with a personal access token (it may be limited to a lower role) */
  token?: TokenIdentity;
  /** the client address the serving process resolved (null under `next dev`): audit rows record it */
  address?: string | null;
}

const PERMISSION_TEXT: Record<Permission, string> = {
  "results.read": "read results",
  "data.export": "read or export raw data",
  "runs.manage": "launch or steer runs",
  "metrics.read": "read the operator's metrics",
  "runs.manage.any": "steer other people's runs",
  "images.import": "import images",
  "faces.label": "label faces",
  "faces.review": "review faces",
  "explanations.review": "review explanations",
  "review.manage": "manage review assignments",
  "annotators.manage": "mark gold faces or exclude an annotator's votes",
  "content.review": "verify or dispute benchmark content",
  "content.import": "import a suite's content from files",
  "content.author": "write content sets",
  "content.approve": "approve or retire content sets",
  "models.manage": "manage models",
  "users.manage": "manage users",
  "webhooks.manage": "manage webhooks",
};

/**
 * The signed-in user of a request, or null. A request carrying a bearer token is judged by the token alone; a client
 * with too many failed token lookups has its further failures answered 429 (its valid tokens still work).
 */
export async function viewerFrom(headers: Headers): Promise<Viewer | null> {
  const address = clientFromHeaders(headers)?.address ?? null;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  if (headers.has("authorization")) {
    const found = bearer ? await tokenOwner(db(), bearer[1]) : null;
    if (!found) {
      // Failures are what is counted and limited: a valid token from the same address (a scraper, CI behind one NAT)
      // keeps working while someone there guesses.
      const wait = await tokenAttemptsBlockedFor(db(), address);
      if (wait > 0)
        throw new DomainError("rate_limited", `too many failed token attempts from this address: try again in ${Math.ceil(wait / 60_000)} minute(s)`);
      await recordTokenFailure(db(), address).catch(() => undefined); // counting must never turn a 401 into a 500
      return null;
    }
    const { user, token } = found;
    // A limited token acts with its own role, everywhere (steering, pages, audit), not just at this guard; one
    // whose role is no longer within its owner's (the owner was demoted since) is refused rather than half-applied.
    if (token.role && !roleWithin(token.role, user.role)) return null;
    const role = (token.role ?? user.role) as Role;
    return { id: user.id, email: user.email, name: user.name, role, accountRole: user.role as Role, spendingLimitUsd: user.spendingLimitUsd, token, address };
  }
  const session = await auth().api.getSession({ headers });
  if (!session) return null;
  const user = await db().user.findUnique({
    where: { id: session.user.id },
    select: { id: true, email: true, name: true, role: true, disabled: true, spendingLimitUsd: true },
  });
  if (!user || user.disabled) return null;
  const role = user.role as Role;
  return { id: user.id, email: user.email, name: user.name, role, accountRole: role, spendingLimitUsd: user.spendingLimitUsd, address };
}

/** Refuses unless signed in (401) with a role that may do this (403, saying what the role cannot do). */
export function authorize(viewer: Viewer | null, permission: Permission): Viewer {
  if (!viewer) throw new DomainError("unauthenticated", "sign in first (or send a valid token: Authorization: Bearer <token>)");
  if (viewer.token && permission === "users.manage") throw new DomainError("forbidden", "a token never manages accounts or tokens: sign in");
  if (!can(viewer.role, permission))
    throw new DomainError(
      "forbidden",
      viewer.token?.role
        ? `token "${viewer.token.name}" is limited to ${viewer.token.role}, which may not ${PERMISSION_TEXT[permission]}`
        : `your role (${viewer.role}) may not ${PERMISSION_TEXT[permission]}`,
    );
  return viewer;
}

/** Refuses a token: managing one's own tokens needs the person, signed in. */
export function assertSession(viewer: Viewer): Viewer {
  if (viewer.token) throw new DomainError("forbidden", "a token never manages accounts or tokens: sign in");
  return viewer;
}

export async function requirePermission(headers: Headers, permission: Permission): Promise<Viewer> {
  return authorize(await viewerFrom(headers), permission);
}
