// The one authorisation decision: who is asking (a personal access token in `Authorization: Bearer`, else the
// better-auth session; either re-read from the database so a disabled account, a changed role or a revoked token
// counts at once) and whether their role may do this. Used by every route handler (lib/server/http.ts), every server
// action and every page. Server-only.
import { DomainError } from "../core/errors";
import { db } from "../db";
import { auth } from "./server";
import { can, type Permission, type Role } from "./roles";
import { tokenOwner, type TokenIdentity } from "./tokens";

export interface Viewer {
  id: string;
  email: string;
  name: string;
  role: Role;
  spendingLimitUsd: number | null;
  /** set when the request came with a personal access token (it may be limited to a lower role) */
  token?: TokenIdentity;
}

const PERMISSION_TEXT: Record<Permission, string> = {
  "results.read": "read results",
  "data.export": "read or export raw data",
  "runs.manage": "launch or steer runs",
  "runs.manage.any": "steer other people's runs",
  "images.import": "import images",
  "faces.label": "label faces",
  "faces.review": "review faces",
  "review.manage": "manage review assignments",
  "content.review": "verify or dispute benchmark content",
  "content.import": "import a suite's content from files",
  "models.manage": "manage models",
  "users.manage": "manage users",
  "webhooks.manage": "manage webhooks",
};

/** The signed-in user of a request, or null. A request carrying a bearer token is judged by the token alone. */
export async function viewerFrom(headers: Headers): Promise<Viewer | null> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  if (headers.has("authorization")) {
    const found = bearer ? await tokenOwner(db(), bearer[1]) : null;
    if (!found) return null;
    const { user, token } = found;
    return { id: user.id, email: user.email, name: user.name, role: user.role as Role, spendingLimitUsd: user.spendingLimitUsd, token };
  }
  const session = await auth().api.getSession({ headers });
  if (!session) return null;
  const user = await db().user.findUnique({
    where: { id: session.user.id },
    select: { id: true, email: true, name: true, role: true, disabled: true, spendingLimitUsd: true },
  });
  if (!user || user.disabled) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role as Role, spendingLimitUsd: user.spendingLimitUsd };
}

/** Refuses unless signed in (401) with a role that may do this (403, saying what the role cannot do). */
export function authorize(viewer: Viewer | null, permission: Permission): Viewer {
  if (!viewer) throw new DomainError("unauthenticated", "sign in first (or send a valid token: Authorization: Bearer <token>)");
  if (!can(viewer.role, permission)) throw new DomainError("forbidden", `your role (${viewer.role}) may not ${PERMISSION_TEXT[permission]}`);
  if (viewer.token) {
    if (permission === "users.manage") throw new DomainError("forbidden", "a token never manages accounts or tokens: sign in");
    if (viewer.token.role && !can(viewer.token.role, permission))
      throw new DomainError("forbidden", `token "${viewer.token.name}" is limited to ${viewer.token.role}, which may not ${PERMISSION_TEXT[permission]}`);
  }
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
