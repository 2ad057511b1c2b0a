export * from "./labels";
export * from "./image";
export * from "./detector";
export * from "./classifier";
export * from "./pipeline";
