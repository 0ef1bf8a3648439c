import { describe, expect, it } from "vitest";
import { brokenRules, checkPassword, meetsPasswordRules, passwordStrength } from "./password-rules";

describe("password rules", () => {
  it("a refused form's check: every rule when one is broken, the repeat's alone when only it differs, none else", () => {
    expect(brokenRules("kurz", "kurz")).toEqual({ minLength: false, upperAndLower: false, digit: false, special: false, maxLength: true, matches: true });
    expect(brokenRules("Gutes-Passwort-1", "Gutes-Passwort-2")).toEqual({ matches: false });
    // A repeat left empty is no mismatch (its field says it is missing), and a good pair no check.
    expect(brokenRules("Gutes-Passwort-1", "")).toBeNull();
    expect(brokenRules("Gutes-Passwort-1", "Gutes-Passwort-1")).toBeNull();
  });

  it("needs at least 8 and at most 72 characters", () => {
    const of = (n: number) => "Aa1!" + "x".repeat(n - 4);
    expect(meetsPasswordRules(of(7))).toBe(false);
    expect(meetsPasswordRules(of(8))).toBe(true);
    expect(meetsPasswordRules(of(72))).toBe(true);
    expect(meetsPasswordRules(of(73))).toBe(false);
    expect(checkPassword(of(7), of(7)).minLength).toBe(false);
    expect(checkPassword(of(73), of(73)).maxLength).toBe(false);
  });

  it.each([
    ["no upper-case letter", "abcdef1!"],
    ["no lower-case letter", "ABCDEF1!"],
    ["no digit", "Abcdefg!"],
    ["no special character", "Abcdefg1"],
  ])("refuses a password with %s", (_label, password) => {
    expect(meetsPasswordRules(password)).toBe(false);
  });

  it("counts any character that is not a letter or digit as special, umlauts as letters", () => {
    expect(meetsPasswordRules("Äpfel und 1 Birne")).toBe(true); // the space is special
    expect(checkPassword("Übung123", "Übung123").special).toBe(false);
    expect(checkPassword("Übung123€", "").special).toBe(true);
  });

  it("checks that both entries match", () => {
    expect(checkPassword("Abcdef1!", "Abcdef1!").matches).toBe(true);
    expect(checkPassword("Abcdef1!", "Abcdef1?").matches).toBe(false);
    expect(checkPassword("", "").matches).toBe(false);
  });

  it("rates strength as Schwach, Mittel or Stark", () => {
    expect(passwordStrength("abc")).toBe("Schwach");
    expect(passwordStrength("Abcdef1!")).toBe("Mittel");
    expect(passwordStrength("Lagerfeuer-2026!")).toBe("Stark");
  });
});
