// One coded error type for the domain: thrown anywhere in lib/, mapped to its HTTP status once, at the boundary
// (lib/engine/http.ts), and shown as its message in pages and the CLI.
export class DomainError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string) => new DomainError(404, `${what} not found`);
export const tooMany = (message: string) => new DomainError(503, message);
export const badRequest = (message: string) => new DomainError(400, message);
