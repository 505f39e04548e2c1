import { env } from "cloudflare:test";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "react-router";
import { describe, expect, it } from "vitest";
import { deleteRoleAction, loadRole, saveRole } from "../../app/routes/carrier/roles.server";
import { saveAccount } from "../../app/routes/carrier/accounts.server";
import { fileAction } from "../../app/routes/maintenance/media.server";
import { makeRole } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";

/**
 * The console's actions and loaders read their input as the API does (docs/rules/input.md
 * "Console input"): they are called here as React Router calls them, with the session cookie
 * of a same-origin request.
 */
const context = { cloudflare: { env, ctx: {}, nonce: "" } } as unknown as AppLoadContext;

function consoleRequest(token: string, path: string, init: { body?: BodyInit; contentType?: string } = {}) {
  const headers: Record<string, string> = { Cookie: `${env.SESSION_COOKIE}=${token}`, Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" };
  if (init.contentType) headers["Content-Type"] = init.contentType;
  return new Request(`${ORIGIN}${path}`, { method: init.body === undefined && !init.contentType ? "GET" : "POST", headers, body: init.body });
}

/** What an action answered: its data and status, as React Router would send them. */
function answer(result: unknown) {
  const { data, init } = result as { data: { ok: boolean; message?: string }; init: { status?: number } | null };
  return { status: init?.status ?? 200, ...data };
}

const roleCount = async (token: string) => (await call("GET", "/user-service/role?size=1", { token })).body.data.total as number;

describe("console actions read JSON bodies as the API does", () => {
  it("answers a missing, malformed, null, non-JSON or oversized body with the API's 400/413 and its localized message, changing nothing", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const before = await roleCount(token);
    const role = { name: `Console ${crypto.randomUUID().slice(0, 6)}`, code: `C_${crypto.randomUUID().slice(0, 8)}`, type: "NORMAL", menuCodes: ["home"] };
    const cases: [BodyInit | undefined, string, number, string][] = [
      ['{"name":', "application/json", 400, "Treść żądania nie jest poprawnym JSON"],
      ["null", "application/json", 400, "Żądanie nie ma treści: wyślij pola jako JSON"],
      ["", "application/json", 400, "Żądanie nie ma treści: wyślij pola jako JSON"],
      [JSON.stringify(role), "text/plain", 400, "Treść żądania musi być w formacie JSON (Content-Type: application/json)"],
      [JSON.stringify({ ...role, description: "x".repeat(1024 * 1024) }), "application/json", 413, "Treść żądania jest zbyt duża (najwyżej 1 MB)"],
    ];
    for (const [body, contentType, status, message] of cases) {
      const request = consoleRequest(token, "/carrierSystem/role/add?lang=pl", { body, contentType });
      const result = answer(await saveRole({ request, context, params: {} } as unknown as ActionFunctionArgs));
      expect(result, `${contentType} ${String(body).slice(0, 20)}`).toMatchObject({ status, ok: false, message });
    }
    const account = consoleRequest(token, "/carrierSystem/carrierAcount/add?lang=pl", { body: "null", contentType: "application/json" });
    expect(answer(await saveAccount({ request: account, context, params: {} } as unknown as ActionFunctionArgs))).toMatchObject({ status: 400, ok: false });
    expect(await roleCount(token)).toBe(before);

    // The same body, well formed, is taken.
    const request = consoleRequest(token, "/carrierSystem/role/add", { body: JSON.stringify(role), contentType: "application/json" });
    expect(await saveRole({ request, context, params: {} } as unknown as ActionFunctionArgs)).toMatchObject({ ok: true });
    expect(await roleCount(token)).toBe(before + 1);
  });

  it("answers a body that does not read as the form it claims with 400 and its localized message, deleting nothing", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(token);
    const unreadable: [string, string][] = [
      // A multipart body without its boundary: an upload or a delete of the file screen, a role's delete.
      [`id=${role.id}`, "multipart/form-data"],
      // JSON where the action reads a form.
      [JSON.stringify({ id: role.id }), "application/json"],
    ];
    for (const [body, contentType] of unreadable) {
      // Read inside the action's try: the action's own error, with the message in the caller's language.
      const files = consoleRequest(token, "/basicInfo/fileManagement?lang=pl", { body, contentType });
      expect(answer(await fileAction({ request: files, context, params: {} } as unknown as ActionFunctionArgs)), contentType).toMatchObject({
        status: 400,
        ok: false,
        message: "Nie udało się odczytać formularza: wyślij go jako formularz (application/x-www-form-urlencoded lub multipart/form-data)",
      });
      // Read before the action's try: the same refusal, which workers/http/page-errors.ts answers with 400.
      const roles = consoleRequest(token, "/carrierSystem/role", { body, contentType });
      await expect(deleteRoleAction({ request: roles, context, params: {} } as unknown as ActionFunctionArgs), contentType).rejects.toMatchObject({ status: 400, key: "errors.formMalformed" });
    }
    expect((await call("GET", `/user-service/role/${role.id}`, { token })).status).toBe(200);
  });

  it("takes a record id in a form or an address as decimal digits only: 0x3 is not record 3", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(token);
    const form = (id: string) => {
      const body = new FormData();
      body.set("id", id);
      return body;
    };
    for (const id of [`0x${role.id.toString(16)}`, `${role.id}.0`, ` ${role.id}`, "true", ""]) {
      const request = consoleRequest(token, "/carrierSystem/role", { body: form(id) });
      expect(answer(await deleteRoleAction({ request, context, params: {} } as unknown as ActionFunctionArgs)), id).toMatchObject({ status: 400, ok: false });
    }
    expect((await call("GET", `/user-service/role/${role.id}`, { token })).status).toBe(200);

    for (const id of [`0x${role.id.toString(16)}`, `${role.id}.0`, ` ${role.id}`, `0${role.id}`]) {
      const request = consoleRequest(token, `/carrierSystem/role/detail/${encodeURIComponent(id)}`);
      await expect(loadRole({ request, context, params: { id } } as unknown as LoaderFunctionArgs), id).rejects.toMatchObject({ status: 404 });
    }
    const own = consoleRequest(token, `/carrierSystem/role/detail/${role.id}`);
    expect((await loadRole({ request: own, context, params: { id: String(role.id) } } as unknown as LoaderFunctionArgs)).role.id).toBe(role.id);
  });
});
