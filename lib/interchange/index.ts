export * from "./jsonl";
