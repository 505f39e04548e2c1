import { inject, describe, expect, it } from "vitest";

/**
 * Ending a session is a change: the console's logout and the API's token refresh refuse a
 * cookie-borne request from another site, so a link or form elsewhere cannot log anyone out
 * (docs/rules/sessions.md).
 */
const baseURL = inject("baseURL");

async function loginToken() {
  const captcha = (await (await fetch(`${baseURL}/user-service/auth/captcha`)).json()) as { data: { captchaId: string } };
  const res = await fetch(`${baseURL}/user-service/auth/login/operator`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ operatorCode: "0PL002", username: "demoadmin", password: "Demo12345", captchaId: captcha.data.captchaId, captcha: "1234" }),
  });
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

const stillValid = async (token: string) =>
  (await fetch(`${baseURL}/user-service/person/operator`, { headers: { Authorization: `Bearer ${token}` } })).status === 200;

describe("session endings from another site", () => {
  it("refuses the console's logout from another site and keeps the session", async () => {
    const token = await loginToken();
    const res = await fetch(`${baseURL}/logout`, {
      method: "POST",
      headers: { Cookie: `plugdesk_session=${token}`, Origin: "https://elsewhere.example", "Sec-Fetch-Site": "cross-site" },
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    expect(await stillValid(token)).toBe(true);
    const own = await fetch(`${baseURL}/logout`, {
      method: "POST",
      headers: { Cookie: `plugdesk_session=${token}`, Origin: baseURL, "Sec-Fetch-Site": "same-origin" },
      redirect: "manual",
    });
    expect(own.status).toBe(302);
    expect(await stillValid(token)).toBe(false);
  });

  it("refuses a cross-site token refresh for a cookie session", async () => {
    const token = await loginToken();
    const res = await fetch(`${baseURL}/user-service/auth/token/refresh`, {
      headers: { Cookie: `plugdesk_session=${token}`, "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(403);
    expect(await stillValid(token)).toBe(true);
  });
});
