/** Menu URLs of the maintenance screens that have their own module (app/routes.ts serves the rest). */
export const maintenanceScreens: Record<string, string> = {
  "/operationMaintenance/maintain": "routes/maintenance/maintain.tsx",
  "/operationMaintenance/maintain/workOrder/:id": "routes/maintenance/work-order-detail.tsx",
  "/operationMaintenance/maintain/maintainerAdd": "routes/maintenance/maintainer-form.tsx",
  "/operationMaintenance/maintain/maintainerEdit/:id": "routes/maintenance/maintainer-form.tsx",
  "/imageManagement/imageManagement": "routes/maintenance/images.tsx",
  "/suboperators/imageManagement": "routes/maintenance/images.tsx",
  "/basicInfo/fileManagement": "routes/maintenance/files.tsx",
  "/userManagement/userProfileManagement/deletionRequests": "routes/maintenance/deletion-requests.tsx",
};
