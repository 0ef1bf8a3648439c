import { describe, expect, it } from "vitest";
import { displayFileName, nameWithExtension, uploadedFileName } from "./file-names";

describe("file names", () => {
  it("end in the extension of the type found in the content", () => {
    expect(nameWithExtension("bild.png", "txt")).toBe("bild.png.txt");
    expect(nameWithExtension("Infobrief.PDF", "pdf")).toBe("Infobrief.PDF");
    expect(nameWithExtension("Foto.jpeg", "jpg")).toBe("Foto.jpeg");
  });

  it("a typed display name keeps no control characters or paths, at most 150 characters", () => {
    expect(displayFileName("Packliste\r\nSet-Cookie: x=1", "k-1.txt")).toBe("PacklisteSet-Cookie: x=1.txt");
    expect(displayFileName("../../etc/passwd", "k-1.pdf")).toBe(".._.._etc_passwd.pdf");
    expect(displayFileName("  Elternbrief 1\\2 ", "k-1.pdf")).toBe("Elternbrief 1_2.pdf");
    expect(displayFileName("x".repeat(200), "k-1.pdf")).toBe(`${"x".repeat(150)}.pdf`);
  });

  it("an empty or blank name falls back", () => {
    expect(displayFileName(" \t ", "k-1.pdf")).toBe("Datei.pdf");
    expect(displayFileName("", "k-1.pdf", "Infobrief.pdf")).toBe("Infobrief.pdf");
  });

  it("keeps no marks that turn text around: 'Rechnung\u202Efdp.txt' must not read as 'Rechnungtxt.pdf'", () => {
    expect(displayFileName("Rechnung\u202Efdp", "k-1.txt")).toBe("Rechnungfdp.txt");
    expect(displayFileName("\u2066a\u2069\u200Fb\u200E\u061C\u0085c", "k-1.pdf")).toBe("abc.pdf");
    expect(uploadedFileName("C:\\Users\\x\\Bild\u202Egnp.txt")).toBe("Bildgnp.txt");
  });

  it("keeps no line separators or zero-width spaces, and never cuts a character in two", () => {
    expect(displayFileName("a\u2028b\u2029c\u200Bd\u2060e\uFEFFf", "k-1.pdf")).toBe("abcdef.pdf");
    // 149 letters and an emoji (two UTF-16 units): cut after whole characters, no lone half.
    const name = displayFileName(`${"A".repeat(149)}😀Ende`, "k-1.pdf");
    expect(name).toBe(`${"A".repeat(149)}😀.pdf`);
    expect(Buffer.from(name, "utf8").toString("utf8")).toBe(name);
    expect(uploadedFileName(`${"B".repeat(149)}😀.png`)).toBe(`${"B".repeat(149)}😀`);
  });
});
