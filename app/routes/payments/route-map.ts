/** Menu URLs of the payment screens (app/routes.ts serves the rest). */
export const paymentScreens: Record<string, string> = {
  "/carrierSystem/paymentChannel": "routes/payments/payment-channels.tsx",
};
