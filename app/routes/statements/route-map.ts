/** Menu URLs of the statement and collection-account screens (app/routes.ts serves the rest). */
export const statementScreens: Record<string, string> = {
  "/financialManagement/financialStatements": "routes/statements/statements.tsx",
  "/financialManagement/financialAcount": "routes/statements/collection-account.tsx",
  "/suboperators/finance/financialStatements": "routes/statements/statements.tsx",
};
