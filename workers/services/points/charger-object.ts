import { chargePointName } from "../../ocpp/identity";

/**
 * The Durable Object of a point's charger. A verb that changes what it keeps of the point's
 * registration (the key, whether the point is enabled, the point itself) tells it before it
 * answers, so a boot or a connect never decides on an old value
 * (docs/decisions/0016-charger-registration-kept-by-the-charger.md).
 */
export const chargerObject = (env: Env, point: { operatorId: number; serialNumber: string }) =>
  env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber));

/** The point changed (enabled, disabled, deleted): its charger reads the registration from D1 at its next connect or boot. */
export const registrationChanged = (env: Env, point: { operatorId: number; serialNumber: string }) => chargerObject(env, point).forgetRegistration();
