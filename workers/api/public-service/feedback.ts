import { publicFeedbackInput } from "../../../domain/schemas/content";
import { sendPublicFeedback } from "../../services/content/public-feedback";
import { resource } from "../resource";

const publicService = resource("Public service: feedback", "/public-service");

/** Drivers' feedback from a charger's page or a receipt (docs/rules/content.md "Feedback"): no login, no captcha, bounded. */
export const routes = [
  publicService.post(
    "/feedback",
    "Send feedback about a charger (serialNumber) or a session (receiptToken): at most 5 a minute per client and 20 an hour per charger or receipt, then 429",
    sendPublicFeedback,
    publicFeedbackInput,
  ),
];
