/** Menu URLs of the equipment screens that have their own module (app/routes.ts serves the rest). */
export const equipmentScreens: Record<string, string> = {};
