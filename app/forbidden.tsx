import Link from "next/link";
import { isRole, ROLE_LABELS } from "@/lib/auth/roles";
import { EmptyState } from "@/components/ui/empty-state";
import { currentViewer } from "@/app/guard";

/** What a page refused by pageGuard shows, with HTTP 403 (forbidden() from next/navigation). */
export default async function Forbidden() {
  const viewer = await currentViewer();
  return (
    <EmptyState title="This page is not for your role">
      {viewer && isRole(viewer.role) ? `You are signed in as ${viewer.email} (${ROLE_LABELS[viewer.role]}).` : "You are not signed in."} Ask an admin if you
      need it.{" "}
      <Link href="/" className="text-indigo-700 underline">
        Home
      </Link>
    </EmptyState>
  );
}
