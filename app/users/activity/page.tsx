import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { activity, activityFilterSchema } from "@/lib/auth/activity";
import { AUDIT_ACTIONS } from "@/lib/auth/audit";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { flatParams } from "@/lib/results/params";
import { pageGuard } from "@/app/guard";
import { Input, Select } from "@/components/ui/input";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await pageGuard("users.manage", "/users/activity");
  await connection();
  const parsed = activityFilterSchema.safeParse(flatParams(await searchParams));
  if (!parsed.success) return <EmptyState title="Invalid filter">{parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}</EmptyState>;
  const data = await activity(db(), parsed.data);
  const f = data.filter;
  const nextHref = data.next
    ? `/users/activity?${new URLSearchParams({ ...(f.userId ? { userId: f.userId } : {}), ...(f.email ? { email: f.email } : {}), ...(f.action ? { action: f.action } : {}), ...(f.from ? { from: f.from } : {}), ...(f.to ? { to: f.to } : {}), before: String(data.next) })}`
    : null;
  return (
    <>
      <PageHeader
        title="Activity"
        description="Who did what, and when: append-only, newest first."
        actions={
          <Link href="/users" className="text-sm text-indigo-700 underline">
            Users
          </Link>
        }
      />
      <Card>
        <form className="mb-3 flex flex-wrap items-end gap-2 text-sm" method="get">
          <label>
            <span className="block text-xs font-medium text-slate-600">User (email)</span>
            <Input type="email" name="email" defaultValue={f.email ?? ""} placeholder="anyone" className="rounded-md border border-slate-300 px-2 py-1" />
          </label>
          <label>
            <span className="block text-xs font-medium text-slate-600">Action</span>
            <Select name="action" defaultValue={f.action ?? ""} className="rounded-md border border-slate-300 px-2 py-1.5">
              <option value="">any</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </Select>
          </label>
          <label>
            <span className="block text-xs font-medium text-slate-600">From</span>
            <Input type="date" name="from" defaultValue={f.from ?? ""} className="rounded-md border border-slate-300 px-2 py-1" />
          </label>
          <label>
            <span className="block text-xs font-medium text-slate-600">To</span>
            <Input type="date" name="to" defaultValue={f.to ?? ""} className="rounded-md border border-slate-300 px-2 py-1" />
          </label>
          <button type="submit" className="rounded-md px-3 py-1.5 font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
            Filter
          </button>
        </form>
        {data.rows.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing recorded for this filter.</p>
        ) : (
          <Table data-testid="activity">
            <thead>
              <tr>
                <Th>When (UTC)</Th>
                <Th>Who</Th>
                <Th>Action</Th>
                <Th>Target</Th>
                <Th>Details</Th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.id}>
                  <Td className="whitespace-nowrap text-xs tabular-nums">{r.at.replace("T", " ").slice(0, 19)}</Td>
                  <Td className="text-xs">{r.who}</Td>
                  <Td className="font-mono text-xs">{r.action}</Td>
                  <Td className="text-xs">{r.targetType ? `${r.targetType} ${r.targetId ?? ""}` : "–"}</Td>
                  <Td className="max-w-md truncate font-mono text-xs" title={JSON.stringify(r.details)}>
                    {JSON.stringify(r.details)}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {nextHref && (
          <Link href={nextHref} className="mt-2 inline-block text-sm text-indigo-700 underline">
            Older
          </Link>
        )}
      </Card>
    </>
  );
}
