export function GroupCell({ truth }: { truth?: { highest: string; lowest: string } }) {
  if (!truth)
    return (
      <span className="text-slate-400" title="This attribute does not apply to the statistic">
        not applicable
      </span>
    );
  return (
    <span className="whitespace-nowrap">
      <span className="font-medium">{truth.highest}</span>
      <span className="text-slate-400"> / </span>
      <span>{truth.lowest}</span>
    </span>
  );
}
