import { describe, expect, it } from "vitest";
import { isValidEmail } from "./email";

describe("the e-mail pattern", () => {
  it.each([
    ["a@b.c", false], // top-level part of 1 letter
    ["a@b.de", true], // 2
    ["a@b.museum", true], // 6
    ["a@b.museums", false], // 7
    ["a@b.d3", false],
  ])("%s → %s (length of the top-level part)", (email, valid) => {
    expect(isValidEmail(email)).toBe(valid);
  });

  it.each(["erika.muster@example.org", "e_muster-2@mail.example.org", "E.Muster@Example.ORG"])("accepts %s", (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each(["erika+camp@example.org", "erika muster@example.org", "erika@", "@example.org", "erika@@example.org", "ä@example.org", "erika@example"])(
    "refuses %s",
    (email) => {
      expect(isValidEmail(email)).toBe(false);
    },
  );
});
