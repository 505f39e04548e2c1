/**
 * Menu URLs of the platform's screens, the sub-operator management screens and the operator's
 * own package screens (docs/rules/platform.md); app/routes.ts serves the rest.
 */
export const platformScreens: Record<string, string> = {
  "/platform/operator": "routes/platform/operators.tsx",
  "/platform/operator/add": "routes/platform/operator-form.tsx",
  "/platform/operator/edit/:id": "routes/platform/operator-form.tsx",
  "/platform/operator/detail/:id": "routes/platform/operator-detail.tsx",
  "/platform/pricePackage": "routes/platform/packages.tsx",
  "/platform/pricePackage/add": "routes/platform/package-form.tsx",
  "/platform/pricePackage/detail/:id": "routes/platform/package-detail.tsx",
  "/carrierSystem/carrierInfo": "routes/platform/carrier-info.tsx",
  "/carrierSystem/carrierInfo/carrierInfoEdit": "routes/platform/carrier-info-form.tsx",
  "/carrierSystem/carrierInfo/authorizationBillingDetail/:id": "routes/platform/billing-detail.tsx",
  "/SubOperator/operatorAcount": "routes/sub-operators/accounts.tsx",
  "/SubOperator/operatorAcount/accountAdd": "routes/sub-operators/account-form.tsx",
  "/SubOperator/operatorAcount/accountEdit/:id": "routes/sub-operators/account-form.tsx",
  "/SubOperator/operatorAcount/accountDetail/:id": "routes/sub-operators/account-detail.tsx",
  "/SubOperator/operatorAcount/enable/:id": "routes/sub-operators/account-detail.tsx",
  "/SubOperator/operatorFinance": "routes/sub-operators/finance.tsx",
  "/suboperators/subOperatorInfo/subOperatorInfo": "routes/sub-operators/info.tsx",
  "/suboperators/subOperatorInfo/subOperatorInfoEdit": "routes/sub-operators/info-form.tsx",
};
