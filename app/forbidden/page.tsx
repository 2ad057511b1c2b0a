import type { Metadata } from "next";
import Link from "next/link";
import { isRole, PERMISSIONS, type Permission } from "@/lib/auth/roles";
import { EmptyState } from "@/components/ui/empty-state";
import { currentViewer } from "@/app/guard";

export const metadata: Metadata = { title: "Not for your role" };

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const viewer = await currentViewer();
  const need = (await searchParams).need;
  const what = (PERMISSIONS as readonly string[]).includes(need ?? "") ? (need as Permission) : null;
  return (
    <EmptyState title="This page is not for your role">
      {viewer && isRole(viewer.role) ? `You are signed in as ${viewer.email} (${viewer.role})` : "You are not signed in"}
      {what ? `; it needs the “${what}” permission.` : "."} Ask an admin if you need it. <Link href="/" className="text-indigo-700 underline">Home</Link>
    </EmptyState>
  );
}
