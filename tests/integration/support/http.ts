import { env, SELF } from "cloudflare:test";
import { createDb } from "../../../db/client";
import type { PublicCtx } from "../../../workers/services/context";

export const ORIGIN = "http://localhost";

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** One API call as a client would make it; answers the HTTP status and the parsed envelope. */
export async function call<T = any>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Envelope<T>; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await SELF.fetch(`${ORIGIN}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: "manual",
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

export async function captcha() {
  const res = await call<{ captchaId: string; image: string }>("GET", "/user-service/auth/captcha");
  return res.body.data;
}

let clientCounter = 0;
/** A distinct client address, so that lockout tests never touch each other's counters. */
export const freshClient = () => `10.0.${Math.floor(++clientCounter / 250)}.${clientCounter % 250}`;

export async function login(
  operatorCode: string,
  username: string,
  password: string,
  options: { captcha?: string; client?: string } = {},
) {
  const { captchaId } = await captcha();
  return call<{ accessToken: string; expiresAt: string; user: Record<string, any> }>("POST", "/user-service/auth/login/operator", {
    body: { operatorCode, username, password, captchaId, captcha: options.captcha ?? "1234" },
    headers: { "CF-Connecting-IP": options.client ?? freshClient() },
  });
}

/** A token for a demo account (demo accounts are never used for lockout tests). */
export async function tokenFor(operatorCode: string, username: string, password = "Demo12345") {
  const res = await login(operatorCode, username, password);
  if (res.status !== 200) throw new Error(`login ${operatorCode}/${username} failed: ${JSON.stringify(res.body)}`);
  return res.body.data.accessToken;
}

/** Tokens of the demo's three admins: 0PL002's, its sub-operator 0PL002A's, and 0DE001's (another tenant). */
export async function demoAdmins() {
  const [admin, sub, deAdmin] = await Promise.all([tokenFor("0PL002", "demoadmin"), tokenFor("0PL002A", "subadmin1"), tokenFor("0DE001", "deadmin1")]);
  return { admin, sub, deAdmin };
}

export function testCtx(overrides: Partial<PublicCtx> = {}): PublicCtx {
  return {
    db: createDb(env.DB),
    env,
    lang: "en",
    now: Date.now,
    actor: { kind: "public" },
    request: { ip: freshClient(), url: "/test", method: "POST", userAgent: "vitest" },
    ...overrides,
  };
}
