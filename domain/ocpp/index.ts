export * from "./actions";
export * from "./frames";
export * from "./meter-values";
export * from "./schemas";
export * from "./authorization";
