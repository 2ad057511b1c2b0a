import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { userPage } from "@/lib/auth/users";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-messages";
import { isRole } from "@/lib/auth/roles";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { Input } from "@/components/ui/input";
import { CursorNav } from "@/components/ui/cursor-nav";
import { InviteForm, UserControls } from "@/components/users/user-forms";
import { pageGuard } from "@/app/guard";

export const metadata: Metadata = { title: "Users" };

/** A query parameter as one bounded string (anything else: absent). */
const param = (v: string | string[] | undefined, max = 200) => (typeof v === "string" && v.length <= max ? v : undefined);

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await pageGuard("users.manage", "/users");
  await connection();
  const sp = await searchParams;
  const q = param(sp.q, 100)?.trim() || undefined;
  // Pages by key (an email), never by offset: any number of accounts, each page its own size.
  const page = await userPage(db(), { q, after: param(sp.after), before: param(sp.before) });
  const users = page.rows;
  const link = (c: { after?: string; before?: string }) => `/users?${new URLSearchParams({ ...(q ? { q } : {}), ...c })}`;
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
        <Card title={`Accounts (${page.total}${q ? ` matching “${q}”` : ""})`}>
          <form method="get" className="mb-3 flex items-end gap-2 text-sm" role="search">
            <label>
              <span className="block text-xs font-medium text-slate-600">Find by email or name</span>
              <Input type="search" name="q" defaultValue={q ?? ""} className="rounded-md border border-slate-300 px-2 py-1" />
            </label>
            <button type="submit" className="rounded-md px-3 py-1.5 font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
              Find
            </button>
            {q && (
              <Link href="/users" className="py-1.5 text-indigo-700 hover:underline">
                Everyone
              </Link>
            )}
          </form>
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
                    {u.disabled && <Badge tone="danger">disabled</Badge>} {u.placeholder && <Badge tone="neutral">from older labels</Badge>}{" "}
                    {u.accounts.some((a) => a.providerId === SSO_PROVIDER_ID) && (
                      <Badge tone="neutral">
                        {u.accounts.some((a) => a.providerId === SSO_PROVIDER_ID && a.linkedAt) ? "single sign-on (joined by address)" : "single sign-on"}
                      </Badge>
                    )}
                  </Td>
                  <Td>{u.role}</Td>
                  <Td className="tabular-nums">{u.spendingLimitUsd === null ? "none" : `$${u.spendingLimitUsd.toFixed(2)}`}</Td>
                  <Td>
                    {isRole(u.role) && (
                      <UserControls
                        id={u.id}
                        email={u.email}
                        role={u.role}
                        disabled={u.disabled}
                        limit={u.spendingLimitUsd}
                        sso={u.accounts.some((a) => a.providerId === SSO_PROVIDER_ID)}
                      />
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <CursorNav label="Pages of accounts" prev={page.prev && link({ before: page.prev })} next={page.next && link({ after: page.next })} />
        </Card>
      </div>
    </>
  );
}
