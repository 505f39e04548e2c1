import type { Upload } from "../files/images";
import { storeImage } from "../files/images";
import { verb } from "../verb";
import { CUSTOMER_MENU } from "./customers";

/**
 * POST /customer-service/customer/avatar: a customer's picture for the customer form's `avatarKey`
 * (docs/rules/drivers.md "Customers"): JPG or PNG, at most 1 MB and 160 × 160 px like the other
 * images (docs/rules/input.md "Uploads"), stored under the operator's folder, where
 * `checkAvatar` looks for it. Its key is a random UUID, shown by GET /user-service/file/show.
 */
export const avatarFolder = (operatorId: number) => `operators/${operatorId}/public/customers/avatars/`;

export const uploadCustomerAvatar = verb({ menu: CUSTOMER_MENU, mutates: true }, async (ctx, upload: Upload) =>
  storeImage(ctx, "image", upload, avatarFolder(ctx.operator.id), "customer"),
);
