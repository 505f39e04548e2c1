/** Menu URLs of the finance screens that have their own module (app/routes.ts serves the rest). */
export const financeScreens: Record<string, string> = {
  "/financialManagement/chargeConfigurationNew": "routes/finance/strategies.tsx",
  "/financialManagement/chargeConfigurationNew/add": "routes/finance/strategy-form.tsx",
  "/financialManagement/chargeConfigurationNew/edit/:id": "routes/finance/strategy-form.tsx",
  "/financialManagement/chargeConfigurationNew/copy/:id": "routes/finance/strategy-form.tsx",
  "/financialManagement/chargeConfigurationAddNew": "routes/finance/strategy-form.tsx",
  "/financialManagement/chargeConfigurationEditNew/:id": "routes/finance/strategy-form.tsx",
  "/suboperators/finance/chargeConfiguration": "routes/finance/strategies.tsx",
  "/financialManagement/discountStrategy": "routes/finance/discount-strategies.tsx",
};
