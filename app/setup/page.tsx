import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { isFromThisMachine, setupTokenMatches } from "@/lib/auth/setup";
import { userCount } from "@/lib/auth/users";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { SetupForm } from "@/components/auth/setup-form";
import { Alert } from "@/components/ui/alert";

export const metadata: Metadata = { title: "First run" };

export default async function SetupPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  await connection();
  if ((await userCount(db())) > 0) redirect("/sign-in");
  const { token } = await searchParams;
  const allowed = isFromThisMachine(await headers()) || setupTokenMatches(env().dataDir, token);
  return (
    <div className="mx-auto max-w-md">
      <PageHeader
        title="Create the first admin"
        description="No account exists yet. The first one is an admin, who then invites the team (runners, reviewers, annotators, viewers)."
      />
      <Card>
        {allowed ? (
          <SetupForm token={token ?? ""} />
        ) : (
          <Alert compact>
            Open this page on the server itself (http://127.0.0.1), or use the link with the one-time setup token that the server printed in its log.
          </Alert>
        )}
      </Card>
    </div>
  );
}
