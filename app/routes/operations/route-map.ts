/** Menu URLs of the operations screens that have their own module (app/routes.ts serves the rest). */
export const operationsScreens: Record<string, string> = {
  "/equipmentManagement/loadingBalance": "routes/operations/load-balancing.tsx",
  "/equipmentManagement/loadingBalance/add": "routes/operations/load-balancing-form.tsx",
  "/equipmentManagement/loadingBalance/edit/:id": "routes/operations/load-balancing-form.tsx",
  "/equipmentManagement/loadingBalance/detail/:id": "routes/operations/load-balancing-detail.tsx",
  "/operationMaintenance/ocppUpdateConfig": "routes/operations/firmware.tsx",
  "/operationMaintenance/ocppUpdateConfig/add": "routes/operations/firmware-form.tsx",
  "/operationMaintenance/ocppUpdateConfig/edit/:id": "routes/operations/firmware-form.tsx",
  "/operationMaintenance/ocppUpdateConfig/detail/:id": "routes/operations/firmware-detail.tsx",
  "/operationMaintenance/faultCode": "routes/operations/fault-codes.tsx",
  "/operationMaintenance/operationFailure": "routes/operations/failures.tsx",
  "/operationMaintenance/diagnosis": "routes/operations/diagnostics.tsx",
};
