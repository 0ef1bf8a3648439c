import { describe, expect, it } from "vitest";
import { listenProblem } from "./connections.server";

const failure = (code: string) => Object.assign(new Error(code), { code });

describe("listenProblem", () => {
  it("says in German why the port cannot be opened, naming the setting to change", () => {
    expect(listenProblem(failure("EADDRINUSE"), 3000)).toBe(
      "Port 3000 ist schon belegt. Läuft Lagerfeuer schon, oder ein anderes Programm auf diesem Port? Dann dieses beenden oder einen anderen PORT wählen.",
    );
    expect(listenProblem(failure("EACCES"), 80)).toMatch(/^Port 80 darf dieser Benutzer nicht öffnen .* anderen PORT wählen\.$/);
    expect(listenProblem(failure("EADDRNOTAVAIL"), 3000)).toBe("Die Adresse in HOST gibt es auf diesem Rechner nicht (Port 3000).");
    // Operator's walk-through: HOST=nirgendwo.invalid said only "Port 3957 kann nicht geöffnet werden (ENOTFOUND)".
    for (const code of ["ENOTFOUND", "EAI_AGAIN"]) expect(listenProblem(failure(code), 3000)).toMatch(new RegExp(`^Den Rechnernamen in HOST kennt dieses System nicht \\(${code}\\)\\.`));
    expect(listenProblem(failure("EMFILE"), 3000)).toBe("Port 3000 kann nicht geöffnet werden (EMFILE).");
  });
});
