export * from "./labels";
export * from "./data";
export * from "./rng";
export * from "./prompts";
export * from "./parse";
export * from "./query";
