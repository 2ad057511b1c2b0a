import type { Metadata } from "next";
import { connection } from "next/server";
import { pageGuard } from "@/app/guard";
import { db } from "@/lib/db";
import { roleWithin, tokenPage } from "@/lib/auth/tokens";
import { CursorNav } from "@/components/ui/cursor-nav";
import { ROLES, ROLE_LABELS } from "@/lib/auth/roles";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { TokenForm, TokenList } from "@/components/account/tokens";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await pageGuard("signed-in", "/account");
  await connection();
  const raw = (await searchParams).before;
  const before = typeof raw === "string" && /^[a-z0-9]{1,40}$/.test(raw) ? raw : undefined;
  const page = await tokenPage(db(), viewer.id, { before });
  const tokens = page.rows;
  const now = new Date();
  return (
    <>
      <PageHeader title="Account" description={`${viewer.name} · ${viewer.email} · ${ROLE_LABELS[viewer.role]}`} />
      <Card
        title="Personal access tokens"
        description="For CI and scripts: the HTTP API (/api/v1, described at /api/v1/openapi.json) and the remote CLI (fof --server … --token …). A token acts as you — or with a lower role you choose — until it expires or you revoke it; it never manages accounts or tokens."
      >
        <TokenForm roles={ROLES.filter((r) => roleWithin(r, viewer.role))} own={viewer.role} />
        <TokenList
          tokens={tokens.map((t) => ({
            id: t.id,
            name: t.name,
            prefix: t.prefix,
            role: t.role ?? viewer.role,
            state: t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= now ? "expired" : "live",
            expires: t.expiresAt?.toISOString().slice(0, 10) ?? "never",
            lastUsed: t.lastUsedAt?.toISOString().slice(0, 10) ?? "never",
            created: t.createdAt.toISOString().slice(0, 10),
          }))}
        />
        <CursorNav
          label="Pages of tokens"
          prev={before ? "/account" : null}
          next={page.older && `/account?before=${page.older}`}
          prevText="← Newest"
          nextText="Older tokens →"
        />
      </Card>
    </>
  );
}
