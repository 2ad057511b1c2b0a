export * from "./config";
export * from "./plan";
export * from "./cost";
export * from "./status";
export * from "./runs";
export * from "./worker";
export * from "./results";
export * from "./models";
