import { describe, expect, it } from "vitest";
import { CONNECTOR_NAMES, SOCKET_STANDARDS } from "../../domain/connector-names";
import { CATALOGUES } from "../../domain/i18n/catalogues";
import { LANGUAGES } from "../../domain/languages";
import { CONNECTOR_STANDARDS } from "../../domain/schemas/equipment";
import { isOperatorRemoteTag, operatorRemoteTag } from "../../domain/remote-start-tag";
import { layoutRowActions } from "../../app/components/data-table/row-action-layout";
import { limitLines } from "../../app/components/live/limit-lines";
import { mayListenLive, menuTreeFor } from "../../tenants/permissions";

const standardsOf = (language: (typeof LANGUAGES)[number]) =>
  (CATALOGUES[language] as unknown as { points: { standards: Record<string, string> } }).points.standards;

describe("connector names", () => {
  it.each(LANGUAGES)("names every connector standard in %s by the standard's own name", (language) => {
    const labels = standardsOf(language);
    for (const standard of CONNECTOR_STANDARDS) {
      const label = labels[standard];
      if (SOCKET_STANDARDS.has(standard)) {
        expect(label).toContain(CONNECTOR_NAMES[standard]);
        expect(label).not.toBe(CONNECTOR_NAMES[standard]);
      } else {
        expect(label).toBe(CONNECTOR_NAMES[standard]);
      }
    }
  });

  it("gives no two standards the same label in any language", () => {
    for (const language of LANGUAGES) {
      const labels = CONNECTOR_STANDARDS.map((s) => standardsOf(language)[s]);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });
});

describe("row actions", () => {
  it("shows at most two actions as buttons, and puts the rest of three or more into the ⋯ menu", () => {
    expect(layoutRowActions(["detail"])).toEqual({ inline: ["detail"], menu: [] });
    expect(layoutRowActions(["detail", "edit"])).toEqual({ inline: ["detail", "edit"], menu: [] });
    expect(layoutRowActions(["detail", "edit", "delete"])).toEqual({ inline: ["detail", "edit"], menu: ["delete"] });
    expect(layoutRowActions(["edit", "block", "bind", "lost", "delete"])).toEqual({ inline: ["edit", "block"], menu: ["bind", "lost", "delete"] });
  });

  it("counts only the actions this row has", () => {
    expect(layoutRowActions([false, "edit", null, "delete", undefined])).toEqual({ inline: ["edit", "delete"], menu: [] });
  });
});

describe("remote-start tag", () => {
  it("is the operator's own setting, else REMOTE and its id", () => {
    expect(operatorRemoteTag(2, "PLREMOTE")).toBe("PLREMOTE");
    expect(operatorRemoteTag(7, null)).toBe("REMOTE7");
  });

  it("recognises the tag case-insensitively, and nothing else", () => {
    expect(isOperatorRemoteTag("plremote", "PLREMOTE")).toBe(true);
    expect(isOperatorRemoteTag("DEMO0001", "PLREMOTE")).toBe(false);
    expect(isOperatorRemoteTag(null, "PLREMOTE")).toBe(false);
  });
});

describe("load chart limit lines", () => {
  it("draws one labelled line per configuration: the station's limit, then each load-balancing configuration", () => {
    const lines = limitLines({ label: "Limit", kw: 50 }, [
      { id: 3, label: "Evening cap", kw: 30 },
      { id: 4, label: "Grid contract", kw: 50 },
    ]);
    expect(lines.map((l) => [l.key, l.label, l.kw])).toEqual([
      ["station", "Limit", 50],
      ["lb-3", "Evening cap", 30],
      ["lb-4", "Grid contract", 50],
    ]);
    expect(lines[0].labelAt).not.toBe(lines[2].labelAt);
  });

  it("draws none for a station without limits", () => {
    expect(limitLines(null, [])).toEqual([]);
  });
});

describe("live socket", () => {
  it("is opened for an operator's menus and not for the platform's, which listen to nothing live", () => {
    const subject = { sub: 0 as const, edition: "ultimate" as const, adminType: "SUPER" as const, role: null };
    expect(mayListenLive(menuTreeFor({ ...subject, operatorCode: "0PL002", kind: "OPERATOR" }))).toBe(true);
    expect(mayListenLive(menuTreeFor({ ...subject, operatorCode: "PLATFORM", kind: "PLATFORM" }))).toBe(false);
  });
});
