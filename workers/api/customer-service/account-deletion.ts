import { accountDeletionDecision, accountDeletionInput, accountDeletionListQuery } from "../../../domain/schemas/maintenance";
import { decideAccountDeletion, listAccountDeletions, requestAccountDeletion } from "../../services/maintenance/account-deletion";
import { idParam, route } from "../app";

/** Drivers' account deletion requests (docs/rules/maintenance.md "Account deletion"). */
const tag = "Customer service: account deletion";
const path = "/customer-service/account-deletion";

route(
  {
    method: "post",
    path: `${path}/request`,
    summary: "Public: a driver asks to delete their account: { operatorCode, contact (e-mail or phone), reason }; the same answer whether or not the contact is known",
    tag,
    verb: requestAccountDeletion,
    body: accountDeletionInput,
  },
  (ctx, { body }, c) => requestAccountDeletion(ctx, new URL(c.req.url).host, body),
);
route({ method: "get", path, summary: "Deletion requests, newest first (status PENDING, DONE, REJECTED)", tag, verb: listAccountDeletions, query: accountDeletionListQuery }, (ctx, { query }) =>
  listAccountDeletions(ctx, query),
);
route(
  {
    method: "put",
    path: `${path}/{id}`,
    summary: "Complete (DONE: the customer's personal fields are erased) or reject a pending request: { result }",
    tag,
    verb: decideAccountDeletion,
    params: idParam,
    body: accountDeletionDecision,
  },
  (ctx, { params, body }) => decideAccountDeletion(ctx, params.id, body),
);
