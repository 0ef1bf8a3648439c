import { describe, expect, it } from "vitest";
import { confirmationLinkText, joinNames } from "./names";

describe("joinNames", () => {
  it("joins the last name with 'und' and the others with commas", () => {
    expect(joinNames(["Anna"])).toBe("Anna");
    expect(joinNames(["Anna", "Ben"])).toBe("Anna und Ben");
    expect(joinNames(["Anna", "Ben", "Clara"])).toBe("Anna, Ben und Clara");
    expect(joinNames([])).toBe("");
  });
});

describe("confirmationLinkText", () => {
  it("names the enrolment's children and its day", () => {
    const mine = [
      { enrolmentId: 1, firstName: "Lena" },
      { enrolmentId: 2, firstName: "Tim" },
      { enrolmentId: 1, firstName: "Ole" },
    ];
    const at = Date.UTC(2026, 10, 24, 12);
    expect(confirmationLinkText({ id: 1, createdAt: at }, mine)).toBe("Anmeldebestätigung für Lena und Ole vom 24.11.26");
    expect(confirmationLinkText({ id: 2, createdAt: at }, mine)).toBe("Anmeldebestätigung für Tim vom 24.11.26");
    expect(confirmationLinkText({ id: 3, createdAt: at }, mine)).toBe("Anmeldebestätigung vom 24.11.26");
  });
});
