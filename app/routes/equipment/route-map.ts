/** Menu URLs of the equipment screens that have their own module (app/routes.ts serves the rest). */
export const equipmentScreens: Record<string, string> = {
  "/equipmentManagement/station": "routes/equipment/stations.tsx",
  "/equipmentManagement/station/stationAdd": "routes/equipment/station-form.tsx",
  "/equipmentManagement/station/stationDetail/:id": "routes/equipment/station-detail.tsx",
  "/equipmentManagement/station/startPoint": "routes/equipment/station-start.tsx",
  "/equipmentManagement/point": "routes/equipment/points.tsx",
  "/equipmentManagement/point/pointAdd": "routes/equipment/point-form.tsx",
  "/equipmentManagement/point/pointEdit/:id": "routes/equipment/point-form.tsx",
  "/equipmentManagement/point/pointDetail/:id": "routes/equipment/point-detail.tsx",
  "/equipmentManagement/point/pointConfig/:id": "routes/equipment/point-config.tsx",
};
