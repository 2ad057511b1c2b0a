// The boundary for server actions and pages (route handlers use lib/server/http.ts): the signed-in viewer from the
// request's cookies, refused with the same messages as the API.
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { assertSession, authorize, viewerFrom, type Viewer } from "@/lib/auth/guard";
import type { Permission } from "@/lib/auth/roles";
import { DomainError } from "@/lib/core/errors";
import { markActiveSpan } from "@/lib/core/tracing";

/** The signed-in viewer of this request, or null. */
export async function currentViewer(): Promise<Viewer | null> {
  try {
    return await viewerFrom(await headers());
  } catch (e) {
    // A client refused for failed token attempts is, to a page or an action, nobody (routes answer it 429).
    if (e instanceof DomainError && e.code === "rate_limited") return null;
    throw e;
  }
}

/**
 * For server actions: the viewer when allowed, else `{ message }` to hand back to the form (401 / 403 text).
 * "signed-in": anyone signed in, as a person — an action for one's own account, which a token never performs.
 */
export async function actionGuard(permission: Permission | "signed-in"): Promise<{ viewer: Viewer } | { message: string }> {
  try {
    const viewer = await currentViewer();
    // Next.js's request span for the action (traces on): which action (its id), who, and the permission asked.
    markActiveSpan({
      "fof.action.permission": permission,
      "next.action_id": (await headers()).get("next-action")?.slice(0, 100) ?? "",
      ...(viewer ? { "enduser.id": viewer.id, "enduser.role": viewer.role } : {}),
    });
    if (permission === "signed-in") {
      if (!viewer) throw new DomainError("unauthenticated", "sign in first");
      return { viewer: assertSession(viewer) };
    }
    return { viewer: authorize(viewer, permission) };
  } catch (e) {
    if (e instanceof DomainError) {
      markActiveSpan({ "fof.action.refused": e.code });
      return { message: e.message };
    }
    throw e;
  }
}

/** For pages: signed out → the sign-in page (back here afterwards); not allowed → HTTP 403 with app/forbidden.tsx. */
export async function pageGuard(permission: Permission | "signed-in", here: string): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/sign-in?next=${encodeURIComponent(here)}`);
  if (permission !== "signed-in") {
    try {
      authorize(viewer, permission);
    } catch {
      forbidden();
    }
  }
  return viewer;
}
