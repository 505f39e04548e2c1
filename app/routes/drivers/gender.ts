import type { TFunction } from "i18next";
import type { Gender } from "../../../domain/schemas/drivers";

/** A gender's label; "not stated" lives with the form rules it came with (docs/rules/drivers.md "What the customer form asks"). */
export const genderLabel = (t: TFunction, gender: Gender) =>
  gender === "UNSTATED" ? t("formsHelp.customer.genderUnstated") : t(`drivers.customers.genders.${gender}`);
