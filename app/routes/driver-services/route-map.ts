/** Menu URLs of the vehicle, offline-list and reservation screens (app/routes.ts serves the rest). */
export const driverServiceScreens: Record<string, string> = {
  "/vehicleManage/list": "routes/driver-services/vehicles.tsx",
  "/vehicleManage/list/accountBill/:id": "routes/driver-services/vehicle-bills.tsx",
  "/userManagement/offlineUserList": "routes/driver-services/offline-lists.tsx",
  "/userManagement/offlineUserList/add": "routes/driver-services/offline-list-form.tsx",
  "/userManagement/offlineUserList/edit/:id": "routes/driver-services/offline-list-form.tsx",
  "/userManagement/offlineUserList/detail/:id": "routes/driver-services/offline-list-detail.tsx",
  "/operationMaintenance/reservation": "routes/driver-services/reservations.tsx",
  "/suboperators/reservation": "routes/driver-services/reservations.tsx",
};
