import { describe, expect, it } from "vitest";
import { joinNames } from "./names";

describe("joinNames", () => {
  it("joins the last name with 'und' and the others with commas", () => {
    expect(joinNames(["Anna"])).toBe("Anna");
    expect(joinNames(["Anna", "Ben"])).toBe("Anna und Ben");
    expect(joinNames(["Anna", "Ben", "Clara"])).toBe("Anna, Ben und Clara");
    expect(joinNames([])).toBe("");
  });
});
