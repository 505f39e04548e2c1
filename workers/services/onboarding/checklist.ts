import { count, isNotNull, sql } from "drizzle-orm";
import { accounts, points, rfCards, stations } from "../../../db/schema";
import { catalogueKeyOf, hasMenuCode, menuCodes } from "../../../tenants/permissions";
import { owned } from "../../../tenants/scope";
import { HOME_MENUS } from "../dashboard/dashboard";
import { verb } from "../verb";

/**
 * A new operator's first steps, in the order they depend on each other (docs/rules/console.md
 * "Onboarding"): a location, a charger connected with its address, id and key, a price on a
 * point, a card for drivers, a colleague. Each step is read from the operator's own rows, so it
 * ticks itself when the work is done, wherever it was done.
 */
export const ONBOARDING_STEPS = ["location", "charger", "price", "card", "colleague"] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** Where each step is done, and the menu code that screen needs. */
const SCREENS: Record<OnboardingStep, { href: string; menu: string }> = {
  location: { href: "/equipmentManagement/station/stationAdd", menu: "equipment.station" },
  charger: { href: "/equipmentManagement/point/pointAdd", menu: "equipment.point" },
  price: { href: "/financialManagement/chargeConfigurationNew", menu: "finance.chargeConfiguration" },
  card: { href: "/user/rf-card", menu: "users.rfCard" },
  colleague: { href: "/carrierSystem/carrierAcount/add", menu: "carrier.carrierAcount" },
};

/**
 * The checklist of the operator's staff, with the steps its edition has screens for; null for a
 * sub-operator or the platform, whose equipment, prices and accounts are made by others. One cheap query per step, each answered
 * from an index that leads with the operator (`exists`-like: `limit 1`, or at most 2 accounts).
 */
export const onboardingChecklist = verb({ menu: HOME_MENUS }, async (ctx) => {
  if (ctx.operator.sub || ctx.operator.kind === "PLATFORM") return null;
  const one = { one: sql<number>`1` };
  const [location, charger, price, card, [team]] = await Promise.all([
    ctx.db.select(one).from(stations).where(owned(ctx, stations)).limit(1),
    // A charger is set up once its key is set: that is when the page hands over the key with the address and id.
    ctx.db.select(one).from(points).where(owned(ctx, points, isNotNull(points.keyHash))).limit(1),
    // A price is set once a strategy is assigned to a point (docs/rules/pricing.md "Assigning points").
    ctx.db.select(one).from(points).where(owned(ctx, points, isNotNull(points.chargeStrategyId))).limit(1),
    ctx.db.select(one).from(rfCards).where(owned(ctx, rfCards)).limit(1),
    ctx.db
      .select({ n: count() })
      .from(ctx.db.select(one).from(accounts).where(owned(ctx, accounts)).limit(2).as("team")),
  ]);
  const done: Record<OnboardingStep, boolean> = {
    location: location.length > 0,
    charger: charger.length > 0,
    price: price.length > 0,
    card: card.length > 0,
    colleague: Number(team?.n ?? 0) > 1,
  };
  // A step whose screen the operator's edition lacks is left out: nobody there can do it.
  const edition = new Set(menuCodes({ ...catalogueKeyOf(ctx.operator), adminType: "SUPER", role: null }).menuCodeAllList);
  const steps = ONBOARDING_STEPS.filter((step) => edition.has(SCREENS[step].menu)).map((step) => ({
    step,
    done: done[step],
    href: SCREENS[step].href,
    /** The user's role may open the screen: otherwise the step says so instead of linking. */
    allowed: hasMenuCode(ctx.actor.menu, SCREENS[step].menu),
  }));
  return { steps, complete: steps.every((s) => s.done) };
});

export type OnboardingChecklist = NonNullable<Awaited<ReturnType<typeof onboardingChecklist>>>;
