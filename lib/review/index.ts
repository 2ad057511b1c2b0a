export * from "./votes";
export * from "./agreement";
export * from "./assignment";
export * from "./report";
