/** Menu URLs of what the operator publishes as a CPO (app/routes.ts serves the rest; docs/rules/ocpi.md "CPO role"). */
export const cpoScreens: Record<string, string> = {
  "/cpo/cpoLocation": "routes/cpo/published.tsx",
  "/cpo/cpoTariff": "routes/cpo/published.tsx",
  "/cpo/cpoSession": "routes/cpo/roaming-drivers.tsx",
  "/cpo/cpoSession/commands": "routes/cpo/commands.tsx",
  "/cpo/cpoCdr": "routes/cpo/roaming-drivers.tsx",
  "/cpo/cpoToken": "routes/cpo/roaming-drivers.tsx",
};
