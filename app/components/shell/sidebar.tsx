import { useState } from "react";
import { NavLink, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { Collapsible } from "radix-ui";
import { ChevronRight } from "lucide-react";
import type { MenuEntry, MenuTop } from "../../../tenants/menu-catalogue";
import { entryForPath, leaves } from "../../../tenants/permissions";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { Tooltip, TooltipContent, TooltipTrigger } from "~/components/ui/tooltip";
import { cn } from "~/lib/cn";
import { menuChain } from "./menu-chain";
import { MenuIcon } from "./menu-icon";

export interface SidebarProps {
  id?: string;
  menu: readonly MenuEntry[];
  /** Icons only. */
  collapsed: boolean;
  /** Called after a link is followed (the small-screen overlay closes then). */
  onNavigate?: () => void;
  className?: string;
}

/** Labels wrap rather than being cut off: German and Polish menu titles are long. */
const itemClass =
  "flex min-h-9 w-full items-center gap-3 rounded-md px-3 py-1.5 text-left text-sm leading-snug text-sidebar-foreground/85 outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-sidebar-ring [&_svg]:size-4 [&_svg]:shrink-0";
const activeItemClass = "bg-sidebar-accent font-medium text-sidebar-accent-foreground";
const collapsedItemClass = "size-10 justify-center px-0";

function ancestorsOf(tree: readonly MenuEntry[], target: MenuEntry | undefined): string[] {
  const chain = target && menuChain(tree, target);
  return chain ? chain.slice(0, -1).map((entry) => entry.code) : [];
}

/** The menu's top-level groups come from ccms, ocpi and tenant permissions (docs/rules/console.md "Shell"). */
function sectionsOf(menu: readonly MenuEntry[]): [MenuTop, MenuEntry[]][] {
  const sections = new Map<MenuTop, MenuEntry[]>();
  for (const entry of menu) sections.set(entry.top, [...(sections.get(entry.top) ?? []), entry]);
  return [...sections];
}

export function Sidebar({ id, menu, collapsed, onNavigate, className }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = entryForPath(menu, pathname);
  const activeGroups = ancestorsOf(menu, active);

  // The group holding the current page opens by itself, also after navigating elsewhere.
  const [open, setOpen] = useState(() => new Set(activeGroups));
  const [openedFor, setOpenedFor] = useState(active?.code);
  if (openedFor !== active?.code) {
    setOpenedFor(active?.code);
    if (activeGroups.some((code) => !open.has(code))) setOpen(new Set([...open, ...activeGroups]));
  }
  const toggle = (code: string, isOpen: boolean) => {
    const next = new Set(open);
    if (isOpen) next.add(code);
    else next.delete(code);
    setOpen(next);
  };

  const sections = sectionsOf(menu);
  const context: EntryContext = { active, activeGroups, open, toggle, collapsed, onNavigate };

  return (
    <aside
      id={id}
      aria-label={t("ui.nav.label")}
      data-collapsed={collapsed}
      className={cn(
        "flex flex-col overflow-x-hidden overflow-y-auto border-r bg-sidebar text-sidebar-foreground transition-[width] duration-200",
        collapsed ? "w-14" : "w-64",
        className,
      )}
    >
      <nav className={cn("flex flex-col gap-4 py-3", collapsed ? "items-center px-2" : "px-3")}>
        {sections.map(([top, entries], index) => (
          <div key={top} className="flex w-full flex-col gap-1">
            {sections.length > 1 &&
              (collapsed ? (
                index > 0 && <hr className="mx-auto mb-1 w-6 border-sidebar-border" />
              ) : (
                <h2 className="px-3 pb-1 text-[11px] font-semibold tracking-wider text-muted-foreground uppercase">
                  {t(`ui.nav.top.${top}`)}
                </h2>
              ))}
            <ul className={cn("flex flex-col gap-0.5", collapsed && "items-center")}>
              {entries.map((entry) => (
                <li key={entry.code} className={cn(!collapsed && "w-full")}>
                  <SidebarEntry entry={entry} depth={0} context={context} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
    </aside>
  );
}

interface EntryContext {
  active: MenuEntry | undefined;
  activeGroups: string[];
  open: ReadonlySet<string>;
  toggle: (code: string, open: boolean) => void;
  collapsed: boolean;
  onNavigate?: () => void;
}

function SidebarEntry({ entry, depth, context }: { entry: MenuEntry; depth: number; context: EntryContext }) {
  if (entry.children) {
    return context.collapsed ? (
      <CollapsedGroup entry={entry} context={context} />
    ) : (
      <ExpandedGroup entry={entry} depth={depth} context={context} />
    );
  }
  return <SidebarLink entry={entry} depth={depth} context={context} />;
}

function SidebarLink({ entry, depth, context }: { entry: MenuEntry; depth: number; context: EntryContext }) {
  const { t } = useTranslation();
  if (!entry.url) return null;
  const isActive = context.active?.code === entry.code;
  const title = t(entry.titleKey);
  const link = (
    <NavLink
      to={entry.url}
      end
      onClick={context.onNavigate}
      data-active={isActive || undefined}
      className={cn(
        itemClass,
        isActive && activeItemClass,
        context.collapsed && collapsedItemClass,
        depth > 0 && "min-h-8 px-2.5",
      )}
    >
      {depth === 0 && <MenuIcon name={entry.icon} />}
      <span className={cn("min-w-0 break-words text-pretty", context.collapsed && "sr-only")}>{title}</span>
    </NavLink>
  );
  if (!context.collapsed) return link;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{link}</TooltipTrigger>
      <TooltipContent side="right">{title}</TooltipContent>
    </Tooltip>
  );
}

function ExpandedGroup({ entry, depth, context }: { entry: MenuEntry; depth: number; context: EntryContext }) {
  const { t } = useTranslation();
  const isOpen = context.open.has(entry.code);
  const holdsActive = context.activeGroups.includes(entry.code);
  return (
    <Collapsible.Root open={isOpen} onOpenChange={(next) => context.toggle(entry.code, next)}>
      <Collapsible.Trigger className={cn(itemClass, holdsActive && "font-medium text-sidebar-foreground", depth > 0 && "min-h-8 px-2.5")}>
        {depth === 0 && <MenuIcon name={entry.icon} />}
        <span className="min-w-0 flex-1 break-words text-pretty">{t(entry.titleKey)}</span>
        <ChevronRight className={cn("opacity-60 transition-transform duration-200", isOpen && "rotate-90")} aria-hidden />
      </Collapsible.Trigger>
      <Collapsible.Content>
        <ul className="mt-0.5 ml-5 flex flex-col gap-0.5 border-l border-sidebar-border pl-2">
          {entry.children?.map((child) => (
            <li key={child.code}>
              <SidebarEntry entry={child} depth={depth + 1} context={context} />
            </li>
          ))}
        </ul>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

/** With icons only, a group opens its pages in a menu beside the rail. */
function CollapsedGroup({ entry, context }: { entry: MenuEntry; context: EntryContext }) {
  const { t } = useTranslation();
  const title = t(entry.titleKey);
  const holdsActive = context.activeGroups.includes(entry.code);
  return (
    <DropdownMenu>
      <Tooltip>
        <TooltipTrigger asChild>
          <DropdownMenuTrigger className={cn(itemClass, collapsedItemClass, holdsActive && activeItemClass)} aria-label={title}>
            <MenuIcon name={entry.icon} />
          </DropdownMenuTrigger>
        </TooltipTrigger>
        <TooltipContent side="right">{title}</TooltipContent>
      </Tooltip>
      <DropdownMenuContent side="right" align="start" className="w-56">
        <DropdownMenuLabel>{title}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {leaves(entry.children ?? []).map((leaf) =>
          leaf.url ? (
            <DropdownMenuItem key={leaf.code} asChild>
              <NavLink
                to={leaf.url}
                end
                onClick={context.onNavigate}
                className={cn(context.active?.code === leaf.code && "font-medium text-primary")}
              >
                {t(leaf.titleKey)}
              </NavLink>
            </DropdownMenuItem>
          ) : null,
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
