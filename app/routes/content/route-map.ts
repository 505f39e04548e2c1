/** Menu URLs of the content screens (app/routes.ts serves the rest). */
export const contentScreens: Record<string, string> = {
  "/carrierSystem/operationLog": "routes/content/operation-log.tsx",
  "/carrierSystem/operationLog/detail/:id": "routes/content/operation-log-detail.tsx",
  "/carrierSystem/disclaimer": "routes/content/content-text.tsx",
  "/carrierSystem/privacyPolicy": "routes/content/content-text.tsx",
  "/carrierSystem/feedback": "routes/content/feedback.tsx",
  "/suboperators/feedback": "routes/content/feedback.tsx",
};
