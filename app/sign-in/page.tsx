import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { userCount } from "@/lib/auth/users";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { SsoButton } from "@/components/auth/sso-button";
import { Alert } from "@/components/ui/alert";
import { passwordSignIn } from "@/lib/auth/server";
import { ssoState } from "@/lib/auth/sso";
import { ssoErrorMessage } from "@/lib/auth/sso-messages";
import { currentViewer } from "@/app/guard";

export const metadata: Metadata = { title: "Sign in" };

/** Only same-site paths are followed after signing in (never an absolute URL: no open redirect). */
function safeNext(next: string | undefined): string {
  return next && /^\/(?!\/)[^\s\\]*$/.test(next) ? next : "/";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) {
  await connection();
  if ((await userCount(db())) === 0) redirect("/setup");
  const params = await searchParams;
  const next = safeNext(params.next);
  if (await currentViewer()) redirect(next);
  const sso = await ssoState();
  const passwords = passwordSignIn();
  // Only our own sentences, chosen by the code: a crafted link cannot put words on this page.
  const failed = ssoErrorMessage(typeof params.error === "string" ? params.error : undefined);
  return (
    <div className="mx-auto max-w-sm">
      <PageHeader
        title="Sign in"
        description={
          sso.status === "off"
            ? "Accounts are made by an admin (an invitation link). Forgot your password? Ask an admin for a reset link."
            : `Sign in with your organisation's account (${sso.config.name}).${passwords ? " Accounts made by an admin sign in with their password." : ""}`
        }
      />
      <Card className="space-y-4">
        {failed && <Alert data-testid="sso-error">{failed}</Alert>}
        {sso.status === "ready" && <SsoButton name={sso.config.name} next={next} primary />}
        {(sso.status === "refused" || sso.status === "unreachable") && (
          <Alert tone="warning">
            Single sign-on is configured but not available now (the server log says why). {passwords ? "Sign in with a password meanwhile." : "Tell an admin."}
          </Alert>
        )}
        {passwords && <SignInForm next={next} />}
      </Card>
    </div>
  );
}
