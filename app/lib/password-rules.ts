// The password rules of the spec, in one place for the live checklist in the browser and for
// the actions that enforce them.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 72;

export type PasswordCheck = {
  minLength: boolean;
  upperAndLower: boolean;
  digit: boolean;
  special: boolean;
  maxLength: boolean;
  matches: boolean;
};

/** What a refused form sends back for its list: the rules it judged (a rule left out stays open). */
export type ServerCheck = Partial<PasswordCheck>;

export const PASSWORD_CHECK_LABELS: Record<keyof PasswordCheck, string> = {
  minLength: `Mindestens ${PASSWORD_MIN} Zeichen`,
  upperAndLower: "Groß- und Kleinbuchstaben",
  digit: "Mindestens eine Ziffer",
  special: "Mindestens ein Sonderzeichen (z. B. ! ? - _ #)",
  maxLength: `Höchstens ${PASSWORD_MAX} Zeichen`,
  matches: "Beide Passwörter stimmen überein",
};

/** Any character that is not a letter or a digit counts as special (DECISIONS.md). */
const SPECIAL = /[^\p{L}\p{N}]/u;

export function checkPassword(password: string, repeat: string): PasswordCheck {
  return {
    minLength: password.length >= PASSWORD_MIN,
    upperAndLower: /\p{Lu}/u.test(password) && /\p{Ll}/u.test(password),
    digit: /\p{Nd}/u.test(password),
    special: SPECIAL.test(password),
    maxLength: password.length <= PASSWORD_MAX,
    matches: password.length > 0 && password === repeat,
  };
}

/**
 * The check a refused form sends back for its list of rules: every rule when the password broke
 * one, the repeat's alone when only it differs, else null. The password fields come back empty,
 * so the list says only which rule was broken (without JavaScript nothing else says it); ticks for
 * a good password that is gone from the form would say a field is fine that is empty.
 */
export function brokenRules(password: string, repeat: string): ServerCheck | null {
  const check = checkPassword(password, repeat);
  const broken = (Object.keys(check) as (keyof PasswordCheck)[]).some((rule) => rule !== "matches" && !check[rule]);
  if (broken) return check;
  // Only the repeat differs: that rule alone (the messages name no rule on the account page).
  return repeat && !check.matches ? { matches: false } : null;
}

/** The rules a new password must meet (everything but the repeat). */
export function meetsPasswordRules(password: string) {
  const { matches: _ignored, ...rules } = checkPassword(password, password);
  return Object.values(rules).every(Boolean);
}

export type PasswordStrength = "Schwach" | "Mittel" | "Stark";

/** Schwach until the rules hold; Stark when they hold with room to spare (length or variety). */
export function passwordStrength(password: string): PasswordStrength {
  if (!meetsPasswordRules(password)) return "Schwach";
  const specials = [...password].filter((c) => SPECIAL.test(c)).length;
  const digits = [...password].filter((c) => /\p{Nd}/u.test(c)).length;
  if (password.length >= 12 && (specials >= 2 || digits >= 2)) return "Stark";
  if (password.length >= 16) return "Stark";
  return "Mittel";
}
