import { matchPath } from "react-router";
import { editionHas, type Edition } from "./editions";
import { MENU_CATALOGUE, type MenuArea, type MenuEntry } from "./menu-catalogue";

/**
 * What decides an operator's catalogue: its area (the platform's own, a main operator's or a
 * sub-operator's), its code (prefix-restricted entries) and its edition
 * (docs/rules/platform.md "Editions").
 */
export interface CatalogueKey {
  operatorCode: string;
  /**
   * 1 for sub-operators, the `sub` the console keeps
   * (docs/rules/access.md "Menus are permissions").
   */
  sub: 0 | 1;
  kind: "PLATFORM" | "OPERATOR";
  edition: Edition;
  /**
   * `false`: the operator has not joined roaming, so the ocpi area is not its
   * (docs/rules/platform.md "Roaming"). Left out where an operator row is not at hand (tests).
   */
  joinOcpi?: boolean;
}

/** The catalogue key of an operator row. */
export function catalogueKeyOf(operator: { code: string; sub: number; kind: "PLATFORM" | "OPERATOR"; edition: Edition; joinOcpi: boolean }): CatalogueKey {
  return { operatorCode: operator.code, sub: operator.sub === 1 ? 1 : 0, kind: operator.kind, edition: operator.edition, joinOcpi: operator.joinOcpi };
}

/**
 * Who is asking, as far as the menu is concerned (docs/rules/access.md "Menus are permissions").
 */
export interface MenuSubject extends CatalogueKey {
  adminType: "SUPER" | "NORMAL";
  role: { type: "SUPER" | "NORMAL" | "MAINTAINER"; menuCodes: readonly string[] } | null;
}

function prune(entries: readonly MenuEntry[], keep: (e: MenuEntry, ancestors: readonly string[]) => boolean, ancestors: readonly string[] = []): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const entry of entries) {
    if (!keep(entry, ancestors)) continue;
    if (entry.children) {
      const children = prune(entry.children, keep, [...ancestors, entry.code]);
      if (children.length > 0) out.push({ ...entry, children });
    } else {
      out.push(entry);
    }
  }
  return out;
}

/** Every code of a tree, groups and leaves. */
export function codesOf(entries: readonly MenuEntry[]): string[] {
  return entries.flatMap((e) => [e.code, ...(e.children ? codesOf(e.children) : [])]);
}

/**
 * The part of the catalogue an operator can have at all: its area, its code prefixes, the
 * menus of its edition (a group stays when a screen below it does), and the roaming area only
 * when it joined OCPI. The platform's own area knows no edition.
 */
export function catalogueFor(key: CatalogueKey): MenuEntry[] {
  const area: MenuArea = key.kind === "PLATFORM" ? "PLATFORM" : key.sub === 1 ? "SUB" : "OPERATOR";
  const inEdition = (e: MenuEntry, ancestors: readonly string[]) =>
    area === "PLATFORM" || Boolean(e.children) || editionHas(key.edition, e.code, ancestors);
  return prune(
    MENU_CATALOGUE.filter((e) => e.area === area && (e.top !== "ocpi" || key.joinOcpi !== false)),
    (e, ancestors) => (!e.codePrefix || key.operatorCode.startsWith(e.codePrefix)) && inEdition(e, ancestors),
  );
}

/** A SUPER account: its admin type or its role's type says so; it holds every menu of its operator. */
export function isSuper(subject: Pick<MenuSubject, "adminType" | "role">): boolean {
  return subject.adminType === "SUPER" || subject.role?.type === "SUPER";
}

/**
 * The menu tree a subject sees. SUPER (admin type or role type) sees the whole tree;
 * sub-operators use the full list of their reduced menu; others see their role's selection.
 */
export function menuTreeFor(subject: MenuSubject): MenuEntry[] {
  const catalogue = catalogueFor(subject);
  const everything = subject.sub === 1 || isSuper(subject);
  if (everything) return catalogue;
  const selected = new Set(subject.role?.menuCodes ?? []);
  // A selected group grants its children; a selected leaf brings its group along.
  const grantedBelow = (e: MenuEntry): boolean =>
    selected.has(e.code) || (e.children?.some(grantedBelow) ?? false);
  const withAncestor = (entries: readonly MenuEntry[], inherited: boolean): MenuEntry[] =>
    entries.flatMap((e) => {
      const granted = inherited || selected.has(e.code);
      if (e.children) {
        const children = withAncestor(e.children, granted);
        return children.length ? [{ ...e, children }] : [];
      }
      return granted ? [e] : [];
    });
  return withAncestor(catalogue.filter(grantedBelow), false);
}

/**
 * What the console keeps: menuCodeList (granted) and menuCodeAllList (all the operator can have;
 * docs/rules/access.md "Menus are permissions").
 */
export function menuCodes(subject: MenuSubject) {
  return {
    menuCodeList: codesOf(menuTreeFor(subject)),
    menuCodeAllList: codesOf(catalogueFor(subject)),
  };
}

export function leaves(tree: readonly MenuEntry[]): MenuEntry[] {
  return tree.flatMap((e) => (e.children ? leaves(e.children) : [e]));
}

/** The URL the guard sends a logged-in user to from carrierList, homePage or login. */
export function firstLeafUrl(tree: readonly MenuEntry[]): string | undefined {
  return leaves(tree).find((e) => e.url)?.url;
}

const matches = (pattern: string, path: string) => matchPath({ path: pattern, end: true }, path) !== null;

/** The menu entry whose URL or sub-page (meta parent) matches a path. */
export function entryForPath(tree: readonly MenuEntry[], path: string): MenuEntry | undefined {
  const normalised = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return leaves(tree).find(
    (e) => (e.url && matches(e.url, normalised)) || e.pages?.some((p) => matches(p.path, normalised)),
  );
}

/** True when the subject holds the menu code, or a group that contains it. */
export function hasMenuCode(tree: readonly MenuEntry[], code: string): boolean {
  return codesOf(tree).includes(code);
}

/**
 * Watching is not operating: generic remote commands (start, stop, reset, unlock, trigger,
 * configuration, availability, data transfer, diagnostics) need the remote-control menu, or the
 * point-management menu for the point page's own tools. Monitoring menus only read.
 */
export const REMOTE_CONTROL_MENUS = ["equipment.remoteControl", "equipment.point"] as const;

/**
 * The menus whose screens listen live on `/live` (the monitoring screens, the home dashboard,
 * the equipment screens that show live state): the socket's own permission, and whether the
 * console opens it at all, so a user without them (the platform's staff) opens no socket it may
 * not use (docs/rules/console.md "Shell").
 */
export const LIVE_MENUS = [
  "home",
  "monitoring.charging",
  "monitoring.chargingPile",
  "monitoring.connector",
  "monitoring.alarmRecord",
  "monitoring.loadMonitoring",
  "equipment.station",
  "equipment.point",
  "equipment.remoteControl",
  "equipment.loadingBalance",
  "operation.historicalAlarmInfo",
  "operation.ocppUpdateConfig",
  "sub.monitoring.charging",
  "sub.monitoring.chargingPile",
  "sub.monitoring.connector",
  "sub.monitoring.alarm",
  "sub.monitoring.loadMonitoring",
  "sub.equipment.station",
  "sub.equipment.point",
] as const;

/** Whether a menu tree may listen live. */
export function mayListenLive(tree: readonly MenuEntry[]): boolean {
  return LIVE_MENUS.some((code) => hasMenuCode(tree, code));
}

/** Whether a menu tree may send a charger generic remote commands. */
export function mayOperateChargers(tree: readonly MenuEntry[]): boolean {
  return REMOTE_CONTROL_MENUS.some((code) => hasMenuCode(tree, code));
}

/**
 * The leaf menus a selection of codes grants in an operator's catalogue: a group grants every
 * leaf below it, a leaf itself. What a role would really give, whatever codes it names.
 */
export function grantedLeaves(key: CatalogueKey, menuCodes: readonly string[]): string[] {
  const tree = menuTreeFor({ ...key, adminType: "NORMAL", role: { type: "NORMAL", menuCodes } });
  return leaves(tree).map((e) => e.code);
}

/**
 * No escalation (docs/rules/access.md): of the leaves a selection grants, those the acting
 * account does not hold itself. A role may be given, and an account may be given a role, only
 * when this is empty; a group code counts as all of its leaves, so holding one leaf of a group
 * never lets anyone hand out the whole group.
 */
export function menusBeyond(actorMenu: readonly MenuEntry[], key: CatalogueKey, menuCodes: readonly string[]): string[] {
  const held = new Set(leaves(actorMenu).map((e) => e.code));
  return grantedLeaves(key, menuCodes).filter((code) => !held.has(code));
}
