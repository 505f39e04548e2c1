import { accountInput, accountListQuery, accountUpdateInput, enableInput } from "../../../domain/schemas/account-service";
import { createAccount, getAccount, listAccounts, setAccountStatus, updateAccount } from "../../services/accounts/accounts";
import { resource } from "../resource";

const account = resource("Account service: accounts", "/user-service/account");

export const routes = [
  account.list("Accounts, paged and filtered", listAccounts, accountListQuery),
  account.create("Create an account with a role the actor may give; answers its initial password once", createAccount, accountInput),
  account.detail("One account", getAccount),
  account.update("Update an account (not one's own role; a SUPER account only by a SUPER; never the owner's role)", updateAccount, accountUpdateInput),
  account.put("/{id}/enable", "Enable or disable an account (not one's own; a SUPER only by a SUPER; never the owner)", setAccountStatus, enableInput),
];
