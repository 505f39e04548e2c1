export * from "./actions";
export * from "./authorization";
export * from "./frames";
export * from "./meter-values";
export * from "./schemas";
