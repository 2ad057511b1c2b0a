import type { Metadata } from "next";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { inspectLink } from "@/lib/auth/invitations";
import { ROLE_LABELS, isRole } from "@/lib/auth/roles";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { JoinForm } from "@/components/auth/join-form";

export const metadata: Metadata = { title: "Join" };

export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const link = await inspectLink(db(), token);
  if (!link) return <EmptyState title="This link is not valid">It was used already, has expired, or is mistyped: ask an admin for a new one.</EmptyState>;
  return (
    <div className="mx-auto max-w-md">
      <PageHeader
        title={link.kind === "invite" ? "Create your account" : "Choose a new password"}
        description={link.kind === "invite" && isRole(link.role) ? `You are invited as ${ROLE_LABELS[link.role]}.` : `For ${link.email}.`}
      />
      <Card>
        <JoinForm token={token} kind={link.kind} email={link.email ?? ""} />
      </Card>
    </div>
  );
}
