// The one authorisation decision behind every route, action and page: 401 when signed out, 403 naming what the role
// may not do, the viewer otherwise — for every role × permission of the matrix.
import { describe, expect, it } from "vitest";
import { authorize, type Viewer } from "../lib/auth/guard";
import { can, PERMISSIONS, ROLES } from "../lib/auth/roles";
import { DomainError } from "../lib/core/errors";

const viewer = (role: Viewer["role"]): Viewer => ({
  id: `u-${role}`,
  email: `${role}@example.org`,
  name: role,
  role,
  accountRole: role,
  spendingLimitUsd: null,
});

describe("authorize", () => {
  it("refuses a signed-out caller with 401", () => {
    expect(() => authorize(null, "results.read")).toThrow(expect.objectContaining({ status: 401 }));
  });

  it("follows the role matrix exactly, with a 403 that names what the role may not do", () => {
    for (const role of ROLES)
      for (const permission of PERMISSIONS) {
        if (can(role, permission)) expect(authorize(viewer(role), permission).role).toBe(role);
        else {
          let error: unknown;
          try {
            authorize(viewer(role), permission);
          } catch (e) {
            error = e;
          }
          expect(error, `${role} × ${permission}`).toBeInstanceOf(DomainError);
          expect((error as DomainError).status).toBe(403);
          expect((error as DomainError).message).toMatch(new RegExp(`^your role \\(${role}\\) may not `));
        }
      }
    // The launch action's decision for an annotator, as the action returns it.
    expect(() => authorize(viewer("annotator"), "runs.manage")).toThrow("your role (annotator) may not launch or steer runs");
  });
});
