import { changePasswordInput } from "../../../domain/schemas/account-service";
import { changePassword } from "../../services/auth/session-verbs";
import { personInfo } from "../../services/auth/user-info";
import { areaCodes, operatorInfo, supportedCurrency } from "../../services/operators/public-info";
import { resource } from "../resource";

const operator = resource("Account service: person", "/user-service/person/operator");

export const routes = [
  operator.get("", "The logged-in account", personInfo),
  operator.get("/info", "Logo and operator info", operatorInfo),
  operator.get("/support/currency", "The operator's currency (code, sign, decimals)", supportedCurrency),
  operator.get("/area-code", "Telephone area codes", areaCodes),
  operator.put("/password", "Change the password (old, new, confirm); every session ends", changePassword, changePasswordInput),
];
