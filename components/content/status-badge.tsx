import { Badge } from "@/components/ui/badge";
import type { ContentSetStatus } from "@/lib/content/status";

const TONE = { draft: "warning", approved: "success", retired: "neutral" } as const;
const TITLE: Record<ContentSetStatus, string> = {
  draft: "waiting for an admin's approval: no run may launch on it yet",
  approved: "runners may launch on it",
  retired: "takes no new runs; runs on it keep their scores",
};

export function ContentStatusBadge({ status }: { status: ContentSetStatus }) {
  return (
    <Badge tone={TONE[status]} title={TITLE[status]}>
      {status}
    </Badge>
  );
}
