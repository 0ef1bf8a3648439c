import { describe, expect, it } from "vitest";
import { rowsFor } from "./forms";

describe("a text area's rows", () => {
  it("fit the text on a phone, at least the form's rows, at most 12", () => {
    expect(rowsFor("", 3)).toBe(3);
    expect(rowsFor(undefined, 2)).toBe(2);
    expect(rowsFor("Nussallergie", 3)).toBe(3);
    // 269 characters, as in the screens' review: 9 lines of 30.
    expect(rowsFor("x".repeat(269), 3)).toBe(9);
    expect(rowsFor("eins\nzwei\ndrei\nvier", 3)).toBe(4);
    expect(rowsFor("x".repeat(500), 3)).toBe(12);
  });
});
