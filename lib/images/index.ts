export * from "./validate";
export * from "./storage";
export * from "./import-names";
export * from "./serve";
export * from "./import";
export * from "./uploads";
