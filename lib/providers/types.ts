// One interface for every way of getting an answer: real APIs and built-in baselines alike.
import type { Attribute, Context, Level, ObjectiveOption, Person, Identity } from "../benchmark";

export type ErrorKind = "retryable" | "rate_limited" | "fatal";

/** A provider failure, classified for the engine. Messages never contain credentials. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ErrorKind,
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** The true classes of a planned query, per attribute id (its groundTruthJson; absent: the statistic has none). */
export type PlannedTruth = Readonly<Record<string, { highest: string | null; lowest: string | null } | undefined>>;

export interface ChatRequest {
  prompt: string;
  /** a system message before the prompt (a suite's helper calls, as its authors sent them); none otherwise */
  system?: string;
  signal: AbortSignal;
  /** what baselines answer from (real providers only read the prompt) */
  query: {
    test: "objective" | "subjective";
    context: Context | null;
    statisticId: string;
    level: Level;
    attribute: Attribute | null;
    /** the subjective query's scenario (per statistic and level); null for objective ones */
    scenarioIndex?: number | null;
    options: ObjectiveOption[] | Person[];
    identity: Identity | null;
    /** the true classes per attribute as the run was planned (a query's groundTruthJson); absent: today's benchmark */
    truth?: PlannedTruth;
    /** a stream name unique to this query and attempt, for seeded baselines */
    streamKey: string;
    seed: number;
  };
}

export interface ChatResponse {
  text: string;
  inputTokens: number | null;
  outputTokens: number | null;
  /** the provider stopped at max_tokens (OpenAI's finish_reason "length"): the answer is cut short */
  truncated?: boolean;
}

export interface ChatProvider {
  readonly name: string;
  chat(req: ChatRequest): Promise<ChatResponse>;
}

export interface ModelParams {
  /** null: not sent (the provider's default), as a suite's authors sent their helper calls */
  temperature: number | null;
  maxTokens: number;
}
