/** Menu URLs of the operations screens that have their own module (app/routes.ts serves the rest). */
export const operationsScreens: Record<string, string> = {
  "/equipmentManagement/loadingBalance": "routes/operations/load-balancing.tsx",
  "/equipmentManagement/loadingBalance/add": "routes/operations/load-balancing-form.tsx",
  "/equipmentManagement/loadingBalance/edit/:id": "routes/operations/load-balancing-form.tsx",
  "/equipmentManagement/loadingBalance/detail/:id": "routes/operations/load-balancing-detail.tsx",
};
