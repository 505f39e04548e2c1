export * from "./decimal";
export * from "./engine";
export * from "./slots";
export * from "./strategy";
export * from "./price-display";
export * from "./sample";
