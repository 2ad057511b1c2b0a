// Which suite's results the Results section shows: each suite's runs are compared with each other and with its own
// paper's published rows, never across suites.
import Link from "next/link";
import { DEFAULT_SUITE_ID, listSuites } from "@/lib/suites";

const suiteResultsHref = (suiteId: string) => (suiteId === DEFAULT_SUITE_ID ? "/results" : `/results/suites/${suiteId}`);

export function SuiteSwitch({ current }: { current: string }) {
  const suites = listSuites().filter((s) => s.customRunPages || s.results);
  return (
    <nav aria-label="Suite" className="flex flex-wrap items-center gap-1 border-b border-slate-200 pb-2 text-sm">
      <span className="mr-1 text-xs text-slate-500">Suite</span>
      {suites.map((s) => (
        <Link
          key={s.id}
          href={suiteResultsHref(s.id)}
          aria-current={s.id === current ? "page" : undefined}
          className={`rounded px-2.5 py-1 font-medium ${s.id === current ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
        >
          {s.name}
        </Link>
      ))}
    </nav>
  );
}
