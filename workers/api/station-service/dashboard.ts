import { homeDashboard } from "../../services/dashboard/dashboard";
import { route } from "../app";

export const routes = [
  route(
    {
      method: "get",
      path: "/station-service/dashboard/home",
      summary: "The home dashboard: device and connector counts, energy and sessions today and this month, energy by day, stations",
      tag: "Dashboard",
      verb: homeDashboard,
    },
    (ctx) => homeDashboard(ctx),
  ),
];
