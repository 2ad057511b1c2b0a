import { auth } from "@/lib/auth/server";

/**
 * better-auth's own endpoints (sign-in, sign-out, session). Public by design: the library checks the request's
 * origin against the trusted origins and rate-limits sign-in itself; sign-up is closed.
 */
export const GET = (req: Request) => auth().handler(req);
export const POST = (req: Request) => auth().handler(req);
