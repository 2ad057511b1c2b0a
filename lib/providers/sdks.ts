// The providers' SDKs, loaded with their first call rather than with the modules that use them: every worker and
// `fof run` imports the providers, and a run on an OpenAI-compatible chat model needs neither SDK (the chat
// provider speaks the API itself, ./openai.ts). Their code was ~0.4 MB of a run's start (npm run bench:cli).
import type OpenAI from "openai";
import type Replicate from "replicate";

export type OpenAISdk = typeof OpenAI;
export type ReplicateSdk = typeof Replicate;

let openai: Promise<OpenAISdk> | null = null;
let replicate: Promise<ReplicateSdk> | null = null;

/** The openai SDK's client class (images), loaded once. */
export const loadOpenAI = (): Promise<OpenAISdk> => (openai ??= import("openai").then((m) => m.default));

/** The replicate SDK's client class, loaded once. */
export const loadReplicate = (): Promise<ReplicateSdk> => (replicate ??= import("replicate").then((m) => m.default));
