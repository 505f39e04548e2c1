/** Menu URLs of the monitoring screens that have their own module (app/routes.ts serves the rest). */
export const monitoringScreens: Record<string, string> = {};
