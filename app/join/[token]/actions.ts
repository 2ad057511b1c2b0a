"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { auth, passwordSignIn } from "@/lib/auth/server";
import { acceptInvitation, inspectLink, resetPassword } from "@/lib/auth/invitations";
import { DomainError } from "@/lib/core/errors";
import { z } from "zod";

export interface JoinState {
  message?: string;
}

/** Public by design: the one-time link is the credential. Accepts an invitation or a reset, then signs in. */
export async function redeemLink(_prev: JoinState, form: FormData): Promise<JoinState> {
  const token = String(form.get("token") ?? "");
  const link = await inspectLink(db(), token);
  if (!link) return { message: "This link is not valid (used, expired or unknown): ask an admin for a new one." };
  let signOn = false;
  try {
    let email: string;
    if (link.kind === "invite") {
      const user = await acceptInvitation(db(), {
        token,
        email: String(form.get("email") ?? ""),
        name: String(form.get("name") ?? ""),
        password: String(form.get("password") ?? ""),
      });
      email = user.email;
    } else {
      await resetPassword(db(), { token, password: String(form.get("password") ?? "") });
      email = link.email!;
    }
    // Passwords turned off (single sign-on only): the account is ready; the person signs on, joined to it by email.
    if (!passwordSignIn()) signOn = true;
    else await auth().api.signInEmail({ body: { email, password: String(form.get("password")) }, headers: await headers() });
  } catch (e) {
    if (e instanceof DomainError) return { message: e.message };
    if (e instanceof z.ZodError) return { message: e.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
    throw e;
  }
  redirect(signOn ? "/sign-in" : "/");
}
