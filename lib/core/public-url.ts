// Where the app is reached, for links in webhooks, the OpenAPI document and invitations. Its own module so that
// what only needs the address (the engine's webhooks, the CLI) does not load the authentication library with it
// (better-auth: ~0.35 s of a CLI run's start, npm run bench:cli).
import { env } from "../env";

/** FOF_PUBLIC_URL behind a proxy, else the address the server listens on. */
export function publicUrl(): string {
  const e = env();
  return e.FOF_PUBLIC_URL ?? `http://${e.HOST === "0.0.0.0" ? "127.0.0.1" : e.HOST}:${e.PORT}`;
}
