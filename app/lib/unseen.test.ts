import { describe, expect, it } from "vitest";
import { readsAs } from "./unseen";

// One rule for the server's group names and the group field's matching in the browser.
describe("readsAs", () => {
  it("reads combined letters, hidden format characters and letter case alike", () => {
    expect(readsAs("Wo\u0308lfe")).toBe(readsAs("Wölfe"));
    expect(readsAs("Wö\u200dlfe")).toBe(readsAs("WÖLFE"));
    expect(readsAs("Keine \u200cGruppe")).toBe(readsAs("keine gruppe"));
    expect(readsAs("Füchse")).not.toBe(readsAs("Fuchse"));
  });
});
