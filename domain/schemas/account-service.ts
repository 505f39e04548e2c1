import { z } from "zod";
import { recordId, wholeNumber } from "./numbers";

/**
 * Schemas of the account service, shared by the console forms and the API: one schema for both
 * (docs/rules/console.md "Forms"). Error strings are i18n keys; the edge translates them.
 */

/**
 * Account, nickname, name and role name are 5 to 20 characters
 * (docs/rules/access.md "Roles and accounts").
 */
export const name5to20 = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required" })
  .min(5, { error: "validation.length5to20" })
  .max(20, { error: "validation.length5to20" });

/** Letters and digits, 5 to 20 characters (docs/rules/sessions.md "Password change"). */
export const newPassword = z
  .string({ error: "validation.required" })
  .min(1, { error: "validation.required" })
  .regex(/^[A-Za-z0-9]{5,20}$/, { error: "validation.passwordRule" });

export const operatorCode = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required" })
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, { error: "validation.operatorCode" });

export const loginInput = z.object({
  operatorCode,
  username: z.string({ error: "validation.usernameRequired" }).trim().min(1, { error: "validation.usernameRequired" }).max(64),
  password: z.string({ error: "validation.passwordRequired" }).min(1, { error: "validation.passwordRequired" }).max(128),
  captchaId: z.string({ error: "validation.captchaRequired" }).min(1, { error: "validation.captchaRequired" }).max(64),
  captcha: z.string({ error: "validation.captchaRequired" }).trim().min(1, { error: "validation.captchaRequired" }).max(16),
});
export type LoginInput = z.infer<typeof loginInput>;

export const changePasswordInput = z
  .object({
    oldPassword: z.string({ error: "validation.oldPasswordRequired" }).min(1, { error: "validation.oldPasswordRequired" }).max(128),
    newPassword,
    confirmPassword: z.string({ error: "validation.required" }).min(1, { error: "validation.required" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: "validation.passwordsDiffer",
    path: ["confirmPassword"],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const roleType = z.enum(["SUPER", "NORMAL", "MAINTAINER"], { error: "validation.roleType" });
export const recordStatus = z.enum(["VALID", "INVALID"], { error: "validation.status" });

export const roleInput = z.object({
  name: name5to20,
  code: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, { error: "validation.required" })
    .max(32, { error: "validation.codeRule" })
    .regex(/^[A-Za-z0-9_]+$/, { error: "validation.codeRule" }),
  type: roleType,
  menuCodes: z.array(z.string().max(80)).max(500).default([]),
  remark: z.string().trim().max(200).optional(),
});
export type RoleInput = z.infer<typeof roleInput>;

const optionalEmail = z
  .string()
  .trim()
  .max(120)
  .refine((v) => v === "" || z.email().safeParse(v).success, { error: "validation.email" })
  .optional();

const optionalPhone = z
  .string()
  .trim()
  .max(32)
  .refine((v) => v === "" || /^\+?[0-9][0-9 -]{4,30}$/.test(v), { error: "validation.phone" })
  .optional();

export const accountInput = z.object({
  username: name5to20.regex(/^[A-Za-z0-9_.@-]+$/, { error: "validation.accountRule" }),
  name: name5to20,
  email: optionalEmail,
  phone: optionalPhone,
  roleId: recordId("validation.roleRequired"),
});
export type AccountInput = z.infer<typeof accountInput>;

export const accountUpdateInput = accountInput.omit({ username: true });
export type AccountUpdateInput = z.infer<typeof accountUpdateInput>;

export const enableInput = z.object({ status: recordStatus });

/** List paging: `current` from 1, `size` 1..100 (10 by default; docs/rules/lists.md "Paging"). */
export const pageQuery = z.object({
  current: wholeNumber("validation.page", (n) => n.min(1)).default(1),
  size: wholeNumber("validation.pageSize", (n) => n.min(1).max(100)).default(10),
});

export const roleListQuery = pageQuery.extend({
  name: z.string().trim().max(40).optional(),
  type: roleType.optional(),
  status: recordStatus.optional(),
});

export const accountListQuery = pageQuery.extend({
  username: z.string().trim().max(40).optional(),
  roleId: recordId().optional(),
  status: recordStatus.optional(),
});

/** DELETE /user-service/auth/token/{accessToken}. */
export const accessTokenParam = z.object({ accessToken: z.string().min(1).max(128) });

/** GET /user-service/operator/login/info/{operatorCode}. */
export const operatorCodeParam = z.object({ operatorCode });

/** GET /user-service/operator/homepage?keyword=: the operator picker. */
export const homepageQuery = z.object({ keyword: z.string().max(40).optional() });

/** GET /user-service/file/show?key=: a stored file of one operator. */
export const fileShowQuery = z.object({ key: z.string().min(1).max(300).regex(/^operators\/\d+\/[A-Za-z0-9/_.-]+$/) });
