import { describe, expect, it } from "vitest";
import { idFrom } from "./ids";

describe("idFrom", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    ["9007199254740991", 9007199254740991],
  ])("%j is the id %d", (value, id) => {
    expect(idFrom(value)).toBe(id);
  });

  it.each(["", "0", "01", "-1", "+1", "1e0", "0x1", "0b1", "1.0", " 1", "1 ", "١", "9007199254740993", "99999999999999999"])("%j is no id", (value) => {
    expect(idFrom(value)).toBeNull();
  });

  it("is null for anything but a string", () => {
    for (const value of [1, null, undefined, {}, ["1"]]) expect(idFrom(value)).toBeNull();
  });
});
