import { describe, expect, it } from "vitest";
import { errorText } from "./http-errors";

describe("the error pages' words", () => {
  // The texts' audit: a login form too large was told to send fewer or smaller files, and it has none.
  it("a body too large names long texts as well as files: any form can be too large", () => {
    expect(errorText(413).message).toBe(
      "Die gesendeten Daten sind zu groß. Gehen Sie im Browser einen Schritt zurück: Dort ist das Formular meist noch ausgefüllt. Kürzen Sie dann lange Texte oder senden Sie weniger oder kleinere Dateien.",
    );
  });
});
