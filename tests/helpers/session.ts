// Signed-in requests for route-handler tests: an account of the given role, signed in through better-auth's own
// endpoint, and its session cookie.
import { db } from "../../lib/db";
import { auth } from "../../lib/auth/server";
import { publicUrl } from "../../lib/core/public-url";
import { createUser } from "../../lib/auth/users";
import type { Role } from "../../lib/auth/roles";

let n = 0;
export async function sessionCookie(role: Role): Promise<string> {
  const email = `${role}-${process.pid}-${++n}@example.org`;
  await createUser(db(), { email, name: role, password: "test-password-123", role });
  const res = await auth().handler(
    new Request(`${publicUrl()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicUrl(), "x-forwarded-for": `10.1.${n}.1` },
      body: JSON.stringify({ email, password: "test-password-123" }),
    }),
  );
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}
