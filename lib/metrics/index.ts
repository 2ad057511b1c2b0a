export * from "./information";
export * from "./bound";
export * from "./scores";
export * from "./bootstrap";
