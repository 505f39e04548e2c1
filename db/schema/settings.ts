import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { operators, timestamps } from "./tenancy";

/**
 * An operator's mail server (docs/rules/settings.md "Mail"): SMTP from the Worker over
 * `cloudflare:sockets`, or Amazon SES v2 over signed HTTPS. Passwords and secret keys are
 * sealed (docs/rules/settings.md "Secrets at rest"). One row per operator.
 */
export const mailSettings = sqliteTable("mail_settings", {
  operatorId: integer("operator_id").primaryKey().references(() => operators.id),
  type: text("type", { enum: ["SMTP", "AMAZON"] }).notNull(),
  host: text("host"),
  port: integer("port"),
  username: text("username"),
  tlsMode: text("tls_mode", { enum: ["NONE", "STARTTLS", "TLS"] }),
  region: text("region"),
  accessKeyId: text("access_key_id"),
  endpoint: text("endpoint"),
  /** The SMTP password or the SES secret access key, sealed. */
  secret: text("secret"),
  from: text("from_address").notNull(),
  /**
   * Where the product was reached when the settings were last saved: the origin of the links in
   * mails sent later by jobs, which have no request (docs/rules/settings.md "Mail").
   */
  linkOrigin: text("link_origin"),
  updatedAt: timestamps.updatedAt(),
});

/**
 * The Serbian fiscal invoice system an operator sends its settled charge records to
 * (docs/rules/settings.md "Invoice system"). One row per operator; the password is sealed.
 */
export const invoiceSystems = sqliteTable("invoice_systems", {
  operatorId: integer("operator_id").primaryKey().references(() => operators.id),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  url: text("url"),
  account: text("account").notNull().default(""),
  password: text("password"),
  pac: text("pac").notNull().default(""),
  updatedAt: timestamps.updatedAt(),
});
