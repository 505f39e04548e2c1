import { createStaticHandler, type ServerBuild } from "react-router";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { Conflict, Forbidden, Invalid, NotFound } from "../../domain/errors";
import { menuTreeFor } from "../../tenants/permissions";
import { breadcrumbTrail } from "../../app/components/shell/breadcrumbs";
import { screenAt, screenTitleKey } from "../../app/components/shell/screen-place";
import { pageStatus, withPageErrors } from "../../workers/http/page-errors";
import { actionForm } from "../../app/lib/input.server";

const menu = menuTreeFor({ operatorCode: "0PL002", sub: 0, kind: "OPERATOR", edition: "ultimate", adminType: "SUPER", role: null });

describe("breadcrumbs", () => {
  it("names the record on a detail page, keeps 'modify' on an edit page", () => {
    expect(breadcrumbTrail(menu, "/equipmentManagement/point/pointDetail/7", "PL002-CP01")).toEqual([
      { titleKey: "menu.equipment.title" },
      { titleKey: "menu.equipment.point", to: "/equipmentManagement/point" },
      { text: "PL002-CP01" },
    ]);
    expect(breadcrumbTrail(menu, "/equipmentManagement/point/pointEdit/7", "PL002-CP01").at(-1)).toEqual({ titleKey: "ui.breadcrumb.modify" });
    expect(breadcrumbTrail(menu, "/carrierSystem/role/detail/3", "Monitoring desk").at(-1)).toEqual({ text: "Monitoring desk" });
  });

  it("falls back to the page's title when the record is not known (its loader failed)", () => {
    expect(breadcrumbTrail(menu, "/equipmentManagement/station/stationDetail/9").at(-1)).toEqual({ titleKey: "page.detail" });
  });
});

describe("screen titles", () => {
  it("titles a sub-page after itself and a menu screen after its entry", () => {
    expect(screenTitleKey(screenAt(menu, "/systemMonitoring/charging/detail/12")!)).toBe("page.chargingDetail");
    expect(screenTitleKey(screenAt(menu, "/equipmentManagement/station/")!)).toBe("menu.equipment.station");
    expect(screenAt(menu, "/nowhere")).toBeUndefined();
  });
});

describe("typed errors on console pages", () => {
  it("shows NotFound as 404 and Forbidden as 403; a malformed id in a loader names no page", () => {
    const zodError = z.object({ id: z.number() }).safeParse({ id: "x" }).error;
    expect(pageStatus(new NotFound(), true)).toBe(404);
    expect(pageStatus(new Forbidden(), false)).toBe(403);
    expect(pageStatus(new Invalid(), true)).toBe(404);
    expect(pageStatus(zodError, true)).toBe(404);
    expect(pageStatus(new Invalid(), false)).toBeUndefined();
    expect(pageStatus(new Conflict("errors.conflict"), true)).toBeUndefined();
    expect(pageStatus(new Error("boom"), true)).toBeUndefined();
  });

  it("turns a verb's typed error thrown by any route's loader into the status React Router renders", async () => {
    const failing = (error: Error) => async () => {
      throw error;
    };
    const build = {
      routes: {
        point: { id: "point", path: "point/:id", module: { loader: failing(new NotFound()) } },
        role: { id: "role", path: "role/:id", module: { loader: failing(new Forbidden()) } },
        broken: { id: "broken", path: "broken", module: { loader: failing(new Error("boom")) } },
      },
    } as unknown as ServerBuild;
    const wrapped = withPageErrors(build);
    expect(withPageErrors(build)).toBe(wrapped);
    const handler = createStaticHandler(
      Object.values(wrapped.routes).map((route) => ({ id: route!.id, path: route!.path, loader: route!.module.loader })),
    );
    const statusOf = async (path: string) => {
      const context = await handler.query(new Request(`http://console.test/${path}`));
      if (context instanceof Response) throw new Error("unexpected response");
      return context.statusCode;
    };
    expect(await statusOf("point/7")).toBe(404);
    expect(await statusOf("role/3")).toBe(403);
    expect(await statusOf("broken")).toBe(500);
  });

  it("answers 400 when an action fails on a body no form or fetcher sends, and lets an action that reads none run", async () => {
    let loggedOut = 0;
    const build = {
      routes: {
        login: { id: "login", path: "login", module: { action: async ({ request }: { request: Request }) => Object.fromEntries(await request.formData()) } },
        logout: { id: "logout", path: "logout", module: { action: async () => ++loggedOut } },
        form: { id: "form", path: "form", module: { action: async ({ request }: { request: Request }) => Object.fromEntries(await actionForm(request)) } },
      },
    } as unknown as ServerBuild;
    const wrapped = withPageErrors(build);
    const handler = createStaticHandler(Object.values(wrapped.routes).map((route) => ({ id: route!.id, path: route!.path, action: route!.module.action })));
    const statusOf = async (path: string, method: string, body?: BodyInit, contentType?: string) => {
      const headers = contentType ? { "Content-Type": contentType } : undefined;
      const context = await handler.query(new Request(`http://console.test/${path}`, { method, body, headers }));
      if (context instanceof Response) throw new Error("unexpected response");
      return context.statusCode;
    };
    expect(await statusOf("login", "PUT")).toBe(400);
    expect(await statusOf("login", "POST", "<username>a</username>", "application/xml")).toBe(400);
    expect(await statusOf("login", "POST", "username=a", "application/x-www-form-urlencoded")).toBe(200);
    // A body that claims a form's type and does not read as one: refused by actionForm, answered 400 outside the action's try.
    expect(await statusOf("form", "POST", "username=a", "multipart/form-data")).toBe(400);
    expect(await statusOf("form", "POST", '{"username":"a"}', "application/json")).toBe(400);
    expect(await statusOf("form", "POST", "username=a", "application/x-www-form-urlencoded")).toBe(200);
    expect(await statusOf("logout", "POST")).toBe(200);
    expect(loggedOut).toBe(1);
  });
});
