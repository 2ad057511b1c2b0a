import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { listUsers } from "@/lib/auth/users";
import { isRole } from "@/lib/auth/roles";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { InviteForm, UserControls } from "@/components/users/user-forms";
import { pageGuard } from "@/app/guard";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  await pageGuard("users.manage", "/users");
  await connection();
  const users = await listUsers(db());
  return (
    <>
      <PageHeader
        title="Users"
        description="One role per person. Invitations and password resets are one-time links you hand over (no mail server). Every change is in the activity log."
        actions={
          <Link href="/users/activity" className="text-sm text-indigo-700 underline">
            Activity log
          </Link>
        }
      />
      <div className="space-y-6">
        <Card title="Invite someone">
          <InviteForm />
        </Card>
        <Card title={`Accounts (${users.length})`}>
          <Table data-testid="users">
            <thead>
              <tr>
                <Th>Account</Th>
                <Th>Role</Th>
                <Th>Spending limit</Th>
                <Th>Controls</Th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <Td>
                    {u.name} <span className="block text-xs text-slate-500">{u.email}</span>
                    {u.disabled && <Badge tone="danger">disabled</Badge>} {u.placeholder && <Badge tone="neutral">from older labels</Badge>}
                  </Td>
                  <Td>{u.role}</Td>
                  <Td className="tabular-nums">{u.spendingLimitUsd === null ? "none" : `$${u.spendingLimitUsd.toFixed(2)}`}</Td>
                  <Td>{isRole(u.role) && <UserControls id={u.id} email={u.email} role={u.role} disabled={u.disabled} limit={u.spendingLimitUsd} />}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
      </div>
    </>
  );
}
