export * from "./access";
export * from "./audit";
export * from "./menu";
export * from "./tenancy";
export * from "./equipment";
export * from "./drivers";
export * from "./driver-services";
