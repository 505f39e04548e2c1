import { Activity, Building, Circle, Globe, House, Network, PlugZap, Users, Wallet, Wrench, type LucideIcon } from "lucide-react";

/** The icon names used by tenants/menu-catalogue.ts. */
const MENU_ICONS: Record<string, LucideIcon> = {
  home: House,
  activity: Activity,
  wallet: Wallet,
  plug: PlugZap,
  wrench: Wrench,
  users: Users,
  building: Building,
  globe: Globe,
  network: Network,
};

export function MenuIcon({ name, className }: { name: string | undefined; className?: string }) {
  const Icon = (name && MENU_ICONS[name]) || Circle;
  return <Icon className={className} aria-hidden />;
}
