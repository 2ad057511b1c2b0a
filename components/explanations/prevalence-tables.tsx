// The explanation results' tables: prevalence per tag (people's sample and judge corrected, each with its 95 %
// interval and a link to the explanations behind it), agreement, the judge's accuracy, the errors beside the choices
// and the model differences. Server-rendered; every number says how many explanations stand behind it.
import Link from "next/link";
import type { ExplanationResults } from "@/lib/features/explanations/results";
import { TAG_MEANING, EXPLANATION_TAGS } from "@/lib/explanations/tags";
import { Table, Td, Th } from "@/components/ui/table";

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)}%`);
const interval = (lo: number | null, hi: number | null) => (lo === null || hi === null ? "" : `${pct(lo)}–${pct(hi)}`);

type Row = ExplanationResults["rows"][number];

export function PrevalenceTable({ rows, behind }: { rows: Row[]; behind: ((row: Row, tag: string, source: "people" | "judge") => string) | null }) {
  return (
    <Table data-testid="prevalence-table">
      <thead>
        <tr>
          <Th>Where</Th>
          <Th>Error</Th>
          <Th>People’s sample</Th>
          <Th>Judge, corrected</Th>
        </tr>
      </thead>
      <tbody>
        {rows.flatMap((row) =>
          row.tags.map((t, i) => (
            <tr key={`${row.model}|${row.statisticId}|${row.context}|${t.tag}`} className={i === 0 ? "border-t-2 border-slate-200" : ""}>
              {i === 0 && (
                <Td rowSpan={row.tags.length} className="align-top">
                  <div className="font-medium">{row.model}</div>
                  <div className="text-xs text-slate-600">
                    {[row.statisticId, row.context && `${row.context} context`, row.chosen && `chose ${row.chosen} (${row.attribute})`]
                      .filter(Boolean)
                      .join(" · ")}
                  </div>
                  <div className="text-xs text-slate-500">
                    {row.reviewed} reviewed of {row.explanations}
                  </div>
                </Td>
              )}
              <Td>{TAG_MEANING[t.tag].label}</Td>
              <Td>
                {t.people.estimate === null ? (
                  <span className="text-slate-500">not reviewed yet</span>
                ) : (
                  <>
                    {behind ? (
                      <Link className="text-indigo-700 underline" href={behind(row, t.tag, "people")}>
                        {pct(t.people.estimate)}
                      </Link>
                    ) : (
                      pct(t.people.estimate)
                    )}{" "}
                    <span className="text-xs text-slate-600">
                      {interval(t.people.lo, t.people.hi)} (n = {t.people.n})
                    </span>
                  </>
                )}
              </Td>
              <Td>
                {!t.judge ? (
                  <span className="text-slate-500">no judge yet</span>
                ) : t.judge.refused ? (
                  <span className="text-xs text-amber-800">
                    {pct(t.judge.judged)} uncorrected — no human check: {t.judge.refused}
                  </span>
                ) : (
                  <>
                    {behind ? (
                      <Link className="text-indigo-700 underline" href={behind(row, t.tag, "judge")}>
                        {pct(t.judge.estimate)}
                      </Link>
                    ) : (
                      pct(t.judge.estimate)
                    )}{" "}
                    <span className="text-xs text-slate-600">
                      {interval(t.judge.lo, t.judge.hi)} (raw {pct(t.judge.judged)}, checked on {t.judge.checked})
                    </span>
                  </>
                )}
              </Td>
            </tr>
          )),
        )}
      </tbody>
    </Table>
  );
}

export function AgreementTable({ r }: { r: ExplanationResults }) {
  return (
    <Table data-testid="agreement-table">
      <thead>
        <tr>
          <Th>Error</Th>
          <Th>Krippendorff’s alpha</Th>
          <Th>Judge sensitivity</Th>
          <Th>Judge specificity</Th>
          <Th>Checked</Th>
        </tr>
      </thead>
      <tbody>
        {EXPLANATION_TAGS.map((tag) => {
          const a = r.agreement[tag];
          const j = r.judge?.accuracy.find((x) => x.tag === tag);
          return (
            <tr key={tag}>
              <Td>{TAG_MEANING[tag].label}</Td>
              <Td>
                {a.alpha === null ? "—" : a.alpha.toFixed(2)}{" "}
                <span className="text-xs text-slate-600">
                  {a.lo === null ? `(${a.units} doubly read)` : `${a.lo.toFixed(2)}–${a.hi!.toFixed(2)} (${a.units} doubly read)`}
                </span>
              </Td>
              <Td>{j ? pct(j.sensitivity) : "—"}</Td>
              <Td>{j ? pct(j.specificity) : "—"}</Td>
              <Td>{j ? j.checked : "—"}</Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

export function ChoiceTable({ r }: { r: ExplanationResults }) {
  const rows = r.choices.filter((c) => c.reviewed > 0);
  if (!rows.length) return <p className="text-sm text-slate-600">No reviewed explanation of a context that names a group yet.</p>;
  return (
    <Table data-testid="choice-table">
      <thead>
        <tr>
          <Th>Model</Th>
          <Th>Attribute</Th>
          <Th>The answer…</Th>
          <Th>Error</Th>
          <Th>Share of explanations</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={`${c.model}|${c.attribute}|${c.picked}|${c.tag}`}>
            <Td>{c.model}</Td>
            <Td>{c.attribute}</Td>
            <Td>{c.picked ? "picked the context’s group" : "picked another group"}</Td>
            <Td>{TAG_MEANING[c.tag].label}</Td>
            <Td>
              {pct(c.share)}{" "}
              <span className="text-xs text-slate-600">
                {interval(c.lo, c.hi)} (n = {c.reviewed})
              </span>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

export function ComparisonTable({ r }: { r: ExplanationResults }) {
  if (!r.comparisons.length) return <p className="text-sm text-slate-600">One model: nothing to compare.</p>;
  const cell = (d: { difference: number; lo: number; hi: number } | null) =>
    d
      ? `${(100 * d.difference).toFixed(1)} points (${(100 * d.lo).toFixed(1)} to ${(100 * d.hi).toFixed(1)})${d.lo > 0 || d.hi < 0 ? "" : " — not separable"}`
      : "—";
  return (
    <Table data-testid="comparison-table">
      <thead>
        <tr>
          <Th>A − B</Th>
          <Th>Error</Th>
          <Th>People’s sample</Th>
          <Th>Judge, corrected</Th>
        </tr>
      </thead>
      <tbody>
        {r.comparisons.map((c) => (
          <tr key={`${c.a}|${c.b}|${c.tag}`}>
            <Td>
              {c.a} − {c.b}
            </Td>
            <Td>{TAG_MEANING[c.tag].label}</Td>
            <Td>{cell(c.people)}</Td>
            <Td>{cell(c.judge)}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
