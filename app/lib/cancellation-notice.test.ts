import { describe, expect, it } from "vitest";
import { cancellationNotice } from "./cancellation-notice";

describe("cancellationNotice", () => {
  it("promises no mail when no one would get one", () => {
    expect(cancellationNotice({ families: 0, helpers: 0, leads: 0 })).toBe("Es ist niemand angemeldet, es wird keine Absage verschickt.");
  });

  it("names only who is told, in singular and plural", () => {
    expect(cancellationNotice({ families: 1, helpers: 0, leads: 0 })).toBe("Eine Absage per E-Mail bekommen: 1 Familie.");
    expect(cancellationNotice({ families: 3, helpers: 1, leads: 0 })).toBe("Eine Absage per E-Mail bekommen: 3 Familien und 1 Helfer*in.");
    expect(cancellationNotice({ families: 2, helpers: 4, leads: 2 })).toBe(
      "Eine Absage per E-Mail bekommen: 2 Familien, 4 Helfer*innen und 2 weitere Personen der Leitung.",
    );
    expect(cancellationNotice({ families: 0, helpers: 0, leads: 1 })).toBe("Eine Absage per E-Mail bekommen: 1 weitere Person der Leitung.");
  });
});
