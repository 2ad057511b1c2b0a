"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { auth } from "@/lib/auth/server";
import { forgetSetupToken, isFromThisMachine, setupTokenMatches } from "@/lib/auth/setup";
import { createUser, emailSchema, nameSchema, passwordSchema, userCount } from "@/lib/auth/users";
import { DomainError } from "@/lib/core/errors";

export interface SetupState {
  message?: string;
}

const schema = z.object({ email: emailSchema, name: nameSchema, password: passwordSchema, token: z.string().max(200).optional() });

/**
 * Creates the first admin. Public by design, but only while no account exists, and only from this machine or with
 * the setup token from the server log; then signs them in.
 */
export async function setupAdmin(_prev: SetupState, form: FormData): Promise<SetupState> {
  const parsed = schema.safeParse({ email: form.get("email"), name: form.get("name"), password: form.get("password"), token: form.get("token") || undefined });
  if (!parsed.success) return { message: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
  const h = await headers();
  const { dataDir } = env();
  if (!isFromThisMachine(h) && !setupTokenMatches(dataDir, parsed.data.token))
    return { message: "Open this page on the server itself, or use the link with the setup token from the server log." };
  if ((await userCount(db())) > 0) return { message: "The first admin exists already: sign in." };
  try {
    await createUser(
      db(),
      { email: parsed.data.email, name: parsed.data.name, password: parsed.data.password, role: "admin" },
      { userId: null, action: "user.setup" },
    );
  } catch (e) {
    if (e instanceof DomainError) return { message: e.message };
    throw e;
  }
  forgetSetupToken(dataDir);
  await auth().api.signInEmail({ body: { email: parsed.data.email, password: parsed.data.password }, headers: h });
  redirect("/");
}
