import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { db } from "@/lib/db";
import { pageGuard } from "@/app/guard";
import { DomainError } from "@/lib/core/errors";
import { getContentSet } from "@/lib/features/content/content-sets";
import { PageHeader } from "@/components/ui/page-header";
import { ContentEditor } from "@/components/content/content-editor";

export const metadata: Metadata = { title: "New content" };

/** The next patch version, for a copy (a stored version never changes: an edit is a higher one). */
const bump = (v: string) => v.replace(/(\d+)$/, (d) => String(Number(d) + 1));

/** Upload a content set's files, or edit a copy of a stored version; check it (problems, diff, prompts), then save a draft. */
export default async function NewContentPage({ searchParams }: { searchParams: Promise<{ from?: string }> }) {
  await pageGuard("content.author", "/benchmark/content/new");
  await connection();
  const from = (await searchParams).from;
  let copy: string | null = null;
  if (from) {
    try {
      const { set } = await getContentSet(db(), from);
      copy = JSON.stringify({ ...set, version: bump(set.version) }, null, 2);
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
    }
  }
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/benchmark" className="hover:underline">
          Benchmark
        </Link>{" "}
        /{" "}
        <Link href="/benchmark/content" className="hover:underline">
          Content sets
        </Link>
      </nav>
      <PageHeader
        title={copy ? `New version of ${from}` : "New content"}
        description="content.json declares the set (docs/schemas/content-set.schema.json); statistics.csv and scenarios.csv may hold its tables. Check shows every problem by file, row and field, the changes against the set's latest version, and the prompts it will send — nothing is stored until you save, and a saved version waits for an admin's approval."
      />
      <ContentEditor initialJson={copy} copyOf={copy ? from! : null} />
    </>
  );
}
