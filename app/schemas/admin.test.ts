import { describe, expect, it } from "vitest";
import { panelHref, readPanelQuery, userActionSchema } from "./admin";

describe("the panel's address parameters", () => {
  it("reads tab, search, page and kind, falling back to the defaults on anything odd", () => {
    expect(readPanelQuery(new URLSearchParams(""))).toEqual({ tab: "veranstaltungen", q: "", page: 1, kind: null });
    expect(readPanelQuery(new URLSearchParams("tab=benutzer&q=%20Erika%20&seite=3"))).toEqual({ tab: "benutzer", q: "Erika", page: 3, kind: null });
    expect(readPanelQuery(new URLSearchParams("tab=protokoll&art=legal&seite=2"))).toMatchObject({ tab: "protokoll", kind: "legal", page: 2 });
    for (const odd of ["tab=gott", "seite=0", "seite=-1", "seite=1.5", "seite=abc", "art=toString", "art=constructor", `q=${"x".repeat(500)}`]) {
      const query = readPanelQuery(new URLSearchParams(odd));
      expect(query.page).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(query.page)).toBe(true);
      expect(query.q.length).toBeLessThanOrEqual(100);
      expect(query.kind).toBeNull();
    }
  });

  it("writes addresses without the defaults, so the tabs link plainly", () => {
    expect(panelHref({ tab: "veranstaltungen" })).toBe("/gott");
    expect(panelHref({ tab: "benutzer", q: "Mü ller", page: 1 })).toBe("/gott?tab=benutzer&q=M%C3%BC+ller");
    expect(panelHref({ tab: "protokoll", kind: "user", page: 2 })).toBe("/gott?tab=protokoll&art=user&seite=2");
  });
});

describe("the user actions", () => {
  it("take a known intent and a positive whole user id only", () => {
    expect(userActionSchema.safeParse({ intent: "deactivate", userId: "12" })).toMatchObject({ success: true, data: { intent: "deactivate", userId: 12, q: "", seite: 1 } });
    for (const bad of [{ intent: "delete", userId: "1" }, { intent: "grant-admin", userId: "0" }, { intent: "grant-admin", userId: "1.5" }, { intent: "grant-admin" }]) {
      expect(userActionSchema.safeParse(bad).success).toBe(false);
    }
  });
});
