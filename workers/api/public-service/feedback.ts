import { publicFeedbackInput } from "../../../domain/schemas/content";
import { sendPublicFeedback } from "../../services/content/public-feedback";
import { route } from "../app";

/** Drivers' feedback from a charger's page or a receipt (docs/rules/content.md "Feedback"): no login, no captcha, bounded. */
export const routes = [
  route(
    {
      method: "post",
      path: "/public-service/feedback",
      summary: "Send feedback about a charger (serialNumber) or a session (receiptToken): at most 5 a minute per client and 20 an hour per charger or receipt, then 429",
      tag: "Public service: feedback",
      verb: sendPublicFeedback,
      body: publicFeedbackInput,
    },
    (ctx, { body }) => sendPublicFeedback(ctx, body),
  ),
];
