import { accountDeletionConfirmInput, accountDeletionDecision, accountDeletionInput, accountDeletionListQuery } from "../../../domain/schemas/maintenance";
import { confirmAccountDeletion, decideAccountDeletion, listAccountDeletions, requestAccountDeletion } from "../../services/maintenance/account-deletion";
import { route } from "../app";
import { resource } from "../resource";

/** Drivers' account deletion requests (docs/rules/maintenance.md "Account deletion"). */
const tag = "Customer service: account deletion";
const path = "/customer-service/account-deletion";
const accountDeletion = resource(tag, path);

export const routes = [
  route(
    {
      method: "post",
      path: `${path}/request`,
      summary:
        "Public: a driver asks to delete their account: { operatorCode, contact (e-mail or phone), reason }; the same answer whether or not the contact is known. With a mail server, confirmation CODE and a ticket: a code is mailed to a known customer's e-mail; without one, confirmation OPERATOR and a message saying the operator will contact the driver to confirm; at most 5 requests per contact and per client an hour (429)",
      tag,
      verb: requestAccountDeletion,
      body: accountDeletionInput,
    },
    (ctx, { body }, c) => requestAccountDeletion(ctx, new URL(c.req.url).host, body),
  ),
  accountDeletion.post(
    "/confirm",
    "Public: the code mailed for a request: { ticket, code }; the request then reaches the operator. Wrong, spent or expired: 400, one message",
    confirmAccountDeletion,
    accountDeletionConfirmInput,
  ),
  accountDeletion.list("Deletion requests, newest first (status PENDING, DONE, REJECTED)", listAccountDeletions, accountDeletionListQuery),
  accountDeletion.update(
    "Complete (DONE: the customer's personal fields are erased) or reject a pending request: { result, identityConfirmedBy }; a request no mailed code confirmed (verified false) is completed only with identityConfirmedBy, how the operator confirmed the requester's identity (else 400)",
    decideAccountDeletion,
    accountDeletionDecision,
  ),
];
