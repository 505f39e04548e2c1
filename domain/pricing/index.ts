export * from "./decimal";
export * from "./engine";
export * from "./slots";
export * from "./strategy";
export * from "./price-display";
export * from "./sample";
export * from "./tariff";
export * from "./tariff-message";
