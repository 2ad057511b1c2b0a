import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { BundleVerifier } from "@/components/evidence/verifier";

export const metadata: Metadata = { title: "Verify an evidence bundle" };

/** Public: whoever received a bundle checks it here without an account; the file stays in their browser. */
export default function VerifyPage() {
  return (
    <>
      <PageHeader
        title="Verify an evidence bundle"
        description="Checks a run's signed evidence bundle in this browser: the Ed25519 signature over its in-toto Statement, every file against the signed manifest, that every planned query is there with its one answer — then recomputes every score from the answers and labels with the workbench's own scoring code and seed, as fof verify does. Nothing is uploaded."
      />
      <p className="mb-4 text-sm text-slate-600">
        What a bundle proves, and what it does not: {/* a Markdown file served by a route handler, not a page: a plain link */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a className="underline" href="/docs/evidence">
          the evidence guide
        </a>{" "}
        (its threat model and limits); how the scores are defined: {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a className="underline" href="/docs/scoring">
          scoring
        </a>
        .
      </p>
      <BundleVerifier />
    </>
  );
}
