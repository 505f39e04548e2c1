/** Menu URLs of the wallet screens (recharges, bills, expense records) that have their own module (app/routes.ts serves the rest). */
export const walletScreens: Record<string, string> = {
  "/rechargeManagement/userRecharge": "routes/wallets/user-recharge.tsx",
  "/financialManagement/billManagement": "routes/wallets/bills.tsx",
  "/financialManagement/billManagement/billDetail/:id": "routes/wallets/bill-detail.tsx",
  "/financialManagement/expenseRecord": "routes/wallets/bills.tsx",
};
