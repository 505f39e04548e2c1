import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { operators, tenantColumns, timestamps } from "./tenancy";

/** Roles: a type and a menu selection (docs/rules/access.md "Menus are permissions"). */
export const roles = sqliteTable(
  "roles",
  {
    ...tenantColumns(),
    name: text("name").notNull(),
    code: text("code").notNull(),
    type: text("type", { enum: ["SUPER", "NORMAL", "MAINTAINER"] }).notNull(),
    status: text("status", { enum: ["VALID", "INVALID"] }).notNull().default("VALID"),
    /** Menu codes of the catalogue (tenants/menu-catalogue.ts) that this role may open. */
    menuCodes: text("menu_codes", { mode: "json" }).$type<string[]>().notNull(),
    remark: text("remark"),
    ...timestamps(),
  },
  (t) => [
    // Role list of one operator, newest first.
    index("roles_operator_created_idx").on(t.operatorId, t.createdAt),
    uniqueIndex("roles_operator_code_uq").on(t.operatorId, t.code),
    uniqueIndex("roles_operator_name_uq").on(t.operatorId, t.name),
  ],
);

/**
 * Console accounts. `mustChangePassword` is the initial-password flag
 * (docs/rules/sessions.md "Initial password").
 */
export const accounts = sqliteTable(
  "accounts",
  {
    ...tenantColumns(),
    username: text("username").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    passwordHash: text("password_hash").notNull(),
    adminType: text("admin_type", { enum: ["SUPER", "NORMAL"] }).notNull().default("NORMAL"),
    roleId: integer("role_id").references(() => roles.id),
    status: text("status", { enum: ["VALID", "INVALID"] }).notNull().default("VALID"),
    mustChangePassword: integer("must_change_password", { mode: "boolean" }).notNull().default(true),
    lastLoginAt: integer("last_login_at", { mode: "timestamp_ms" }),
    ...timestamps(),
  },
  (t) => [
    // Login looks an account up by operator and username.
    uniqueIndex("accounts_operator_username_uq").on(t.operatorId, t.username),
    // An e-mail address also signs in, so it names one account per operator, whatever its case
    // (docs/rules/sessions.md "Login").
    uniqueIndex("accounts_operator_email_uq").on(t.operatorId, sql`lower(${t.email})`).where(sql`${t.email} IS NOT NULL`),
    // Account list of one operator, newest first.
    index("accounts_operator_created_idx").on(t.operatorId, t.createdAt),
    index("accounts_operator_role_idx").on(t.operatorId, t.roleId),
  ],
);

/**
 * Sessions as the Lucia project documents them: the id is the SHA-256 of the opaque token,
 * so a leaked table does not hand out live tokens.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    operatorId: integer("operator_id").notNull().references(() => operators.id),
    accountId: integer("account_id").notNull().references(() => accounts.id),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    // Ending every session of an account after a password change.
    index("sessions_operator_account_idx").on(t.operatorId, t.accountId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

/** Captcha challenges: single-use, short-lived; only a hash of the answer is kept. */
export const captchaChallenges = sqliteTable(
  "captcha_challenges",
  {
    id: text("id").primaryKey(),
    answerHash: text("answer_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: timestamps.createdAt(),
  },
  (t) => [index("captcha_expires_idx").on(t.expiresAt)],
);

/** Failed logins per operator, username and client, for the lockout rule. */
export const loginAttempts = sqliteTable(
  "login_attempts",
  {
    ...tenantColumns(),
    username: text("username").notNull(),
    client: text("client").notNull(),
    createdAt: timestamps.createdAt(),
  },
  (t) => [
    // Counting recent failures of one username from one client.
    index("login_attempts_lookup_idx").on(t.operatorId, t.username, t.client, t.createdAt),
    index("login_attempts_created_idx").on(t.createdAt),
  ],
);
