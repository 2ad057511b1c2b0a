// Renders whatever views a suite returns, in order.
import type { SuiteView } from "@/lib/suites/views";
import { SuiteBars } from "./suite-bars";
import { SuiteList } from "./suite-list";
import { SuiteTable } from "./suite-table";

export function SuiteViews({ views, drillBase, pageHref }: { views: SuiteView[]; drillBase: string; pageHref?: (page: number) => string }) {
  return (
    <div className="space-y-4">
      {views.map((v) =>
        v.kind === "table" ? (
          <SuiteTable key={v.id} view={v} drillBase={drillBase} />
        ) : v.kind === "bars" ? (
          <SuiteBars key={v.id} view={v} />
        ) : (
          <SuiteList key={v.id} view={v} pageHref={pageHref ?? (() => "#")} />
        ),
      )}
    </div>
  );
}
