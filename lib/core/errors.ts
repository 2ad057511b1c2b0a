// One coded error type for the domain: thrown anywhere in lib/, mapped to its HTTP status once, at the boundary
// (lib/server/http.ts), and shown as its message in pages and the CLI. The code decides the status — never the
// message's wording — and travels in API answers ({ error, code, problems? }) so clients can branch on it.

/** Every code and its HTTP status. */
export const ERROR_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** One item of a request refused item by item (a file of an import, a line of an upload): what is wrong with it. */
export interface Problem {
  name: string;
  message: string;
}

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** what is wrong with each refused item, when a request is refused item by item */
    readonly problems?: Problem[],
  ) {
    super(message);
    this.name = "DomainError";
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new DomainError("not_found", `${what} not found`);
export const tooMany = (message: string) => new DomainError("unavailable", message);
export const badRequest = (message: string) => new DomainError("invalid", message);
