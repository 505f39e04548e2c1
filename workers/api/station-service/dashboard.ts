import { homeDashboard } from "../../services/dashboard/dashboard";
import { resource } from "../resource";

const dashboard = resource("Dashboard", "/station-service/dashboard");

export const routes = [
  dashboard.get("/home", "The home dashboard: device and connector counts, energy and sessions today and this month, energy by day, stations", homeDashboard),
];
