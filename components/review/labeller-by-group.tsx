// "Labeller by group": for whom the face classifier errs — its error rate per human-majority class with Wilson 95 %
// intervals, and the largest disparity between classes (lib/review/labeller-error.ts).
import { Table, Td, Th } from "@/components/ui/table";
import { classErrors, errorDisparity, MIN_FACES_PER_CLASS } from "@/lib/review/labeller-error";
import type { AttributeReport } from "@/lib/review";

const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);

export function LabellerByGroup({ attribute, r }: { attribute: string; r: AttributeReport<string> }) {
  const errors = classErrors(r);
  const disparity = errorDisparity(errors, attribute.replace(/ \(.*\)$/, ""));
  return (
    <div data-testid={`labeller-${attribute.split(" ")[0]}`}>
      <h3 className="mb-1 text-sm font-semibold capitalize">{attribute}</h3>
      <Table>
        <thead>
          <tr>
            <Th>Human majority</Th>
            <Th className="text-right">Faces</Th>
            <Th className="text-right">Misread</Th>
            <Th className="text-right">Error rate [95 %]</Th>
          </tr>
        </thead>
        <tbody>
          {errors.map((e) => (
            <tr key={e.cls}>
              <Td>{e.cls}</Td>
              <Td className="text-right tabular-nums">{e.n}</Td>
              <Td className="text-right tabular-nums">{e.errors}</Td>
              <Td className="text-right tabular-nums">
                {pct(e.rate)}{" "}
                {e.rate !== null && (
                  <span className="text-xs text-slate-500">
                    [{pct(e.lo)}, {pct(e.hi)}]
                  </span>
                )}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <p className="mt-1 text-xs text-slate-600" data-testid="labeller-disparity">
        {disparity
          ? `${disparity.sentence[0].toUpperCase()}${disparity.sentence.slice(1)}.`
          : `No disparity to report yet: it needs two classes with at least ${MIN_FACES_PER_CLASS} reviewed faces and some errors.`}
      </p>
    </div>
  );
}
