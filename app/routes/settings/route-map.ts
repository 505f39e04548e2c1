/** Menu URLs of the settings screens (app/routes.ts serves the rest). */
export const settingsScreens: Record<string, string> = {
  "/carrierSystem/parameterSettings": "routes/settings/parameter-settings.tsx",
  "/suboperators/parameterSettings": "routes/settings/parameter-settings.tsx",
  "/platform/mail": "routes/settings/platform-mail.tsx",
};
