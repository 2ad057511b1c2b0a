// A refusal that names where the problem is: the file, the row (1-based; a CSV's header is row 1, a JSON array's
// first element row 1) and the field, so a team can fix a spreadsheet cell without reading code.
export interface ContentIssue {
  file: string;
  row: number | null;
  field: string;
  message: string;
}

export class ContentError extends Error {
  constructor(readonly issues: ContentIssue[]) {
    super(issues.map(formatIssue).join("\n"));
  }
}

export function formatIssue(i: ContentIssue): string {
  return `${i.file}${i.row !== null ? `:${i.row}` : ""} ${i.field}: ${i.message}`;
}
