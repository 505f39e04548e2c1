/** Menu URLs of the roaming screens (app/routes.ts serves the rest; docs/rules/ocpi.md "Console"). */
export const emspScreens: Record<string, string> = {
  "/emsp/emspPlatform": "routes/emsp/platforms.tsx",
  "/emsp/emspPartyInfo": "routes/emsp/roaming-list.tsx",
  "/emsp/emspToken": "routes/emsp/roaming-list.tsx",
  "/emsp/emspSession": "routes/emsp/command-targets.tsx",
  "/emsp/emspSession/commands": "routes/emsp/commands.tsx",
  "/emsp/emspCdr": "routes/emsp/roaming-list.tsx",
  "/emsp/emspLocation": "routes/emsp/command-targets.tsx",
  "/emsp/emspTariff": "routes/emsp/roaming-list.tsx",
};
