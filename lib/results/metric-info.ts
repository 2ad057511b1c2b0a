import type { Metric } from "../published";
import { BETTER } from "./leaderboard";

export const METRIC_INFO: Record<Metric, { label: string; better: "higher" | "lower" }> = {
  sFact: { label: "S_fact", better: BETTER.sFact },
  sE: { label: "S_E", better: BETTER.sE },
  sKLD: { label: "S_KLD", better: BETTER.sKLD },
  sFair: { label: "S_fair", better: BETTER.sFair },
  distance: { label: "d", better: BETTER.distance },
};
