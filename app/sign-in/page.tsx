import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { userCount } from "@/lib/auth/users";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { currentViewer } from "@/app/guard";

export const metadata: Metadata = { title: "Sign in" };

/** Only same-site paths are followed after signing in (never an absolute URL: no open redirect). */
function safeNext(next: string | undefined): string {
  return next && /^\/(?!\/)[^\s\\]*$/.test(next) ? next : "/";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  await connection();
  if ((await userCount(db())) === 0) redirect("/setup");
  const next = safeNext((await searchParams).next);
  if (await currentViewer()) redirect(next);
  return (
    <div className="mx-auto max-w-sm">
      <PageHeader title="Sign in" description="Accounts are made by an admin (an invitation link). Forgot your password? Ask an admin for a reset link." />
      <Card>
        <SignInForm next={next} />
      </Card>
    </div>
  );
}
