/** Menu URLs of the charge record screens (app/routes.ts serves the rest). */
export const recordScreens: Record<string, string> = {
  "/financialManagement/chargeRecord": "routes/records/records.tsx",
  "/financialManagement/chargeRecord/chargeRecordDetail/:id": "routes/records/record-detail.tsx",
  "/suboperators/chargingBill/bill": "routes/records/records.tsx",
  "/suboperators/chargingBill/billDetails/:id": "routes/records/record-detail.tsx",
  "/suboperators/chargingBill/chargeRecord": "routes/records/records.tsx",
};
