import { ButtonLink } from "@/components/ui/button";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-2 text-sm text-slate-700">There is no page, run or statistic at this address.</p>
      <div className="mt-4 flex gap-2">
        <ButtonLink href="/">Home</ButtonLink>
        <ButtonLink href="/benchmark">Benchmark</ButtonLink>
      </div>
    </div>
  );
}
