import { describe, expect, it } from "vitest";
import { birthDateProblem, checkBoxes, mergeProblems, type RuleContext } from "./enrollment-rules";

function context(overrides: Partial<RuleContext> = {}): RuleContext {
  return {
    event: { dateFrom: "2030-07-01", tshirtSizeRequired: false, swimBadgeRequired: false, permitsRequired: false },
    today: "2030-01-15",
    children: new Map([[1, { id: 1, firstName: "Mia", lastName: "Muster", birthDate: "2015-01-01" }]]),
    guardianIds: new Set([7]),
    registeredIds: new Set(),
    ...overrides,
  };
}

const newChild = { firstName: "Ida", lastName: "Muster", street: "Weg 1", city: "Kiel", birthDate: "2016-02-02" };

describe("birthDateProblem", () => {
  it("refuses dates in the future and after the event's start", () => {
    expect(birthDateProblem("2030-01-16", "2030-01-15", "2030-07-01")).toBe("Das Geburtsdatum darf nicht in der Zukunft liegen.");
    // A child saved before the years were checked is no adult (a review of the change).
    expect(birthDateProblem("0215-01-05", "2030-01-15", "2030-07-01")).toBe("Bitte gib ein gültiges Geburtsdatum an.");
    expect(birthDateProblem("2030-01-15", "2030-01-15", "2030-07-01")).toBeNull();
    expect(birthDateProblem("2030-01-10", "2030-01-15", "2030-01-01")).toBe("Das Geburtsdatum darf nicht nach dem Beginn der Veranstaltung liegen.");
  });
});

describe("checkBoxes", () => {
  it("names every problem of every box at once", () => {
    const problems = checkBoxes(
      [
        { participant: "1" },
        { participant: "neu", child: { ...newChild, birthDate: "2031-01-01" }, guardian: "neu", newGuardian: { firstName: "Eva" }, birthdateOfInsured: "2099-01-01" },
      ],
      context({ event: { dateFrom: "2030-07-01", tshirtSizeRequired: true, swimBadgeRequired: true, permitsRequired: true } }),
    );
    expect(Object.keys(problems).sort()).toEqual([
      "boxes[0].allowedToCanoe",
      "boxes[0].allowedToSwim",
      "boxes[0].allowedToWander",
      "boxes[0].canSwim",
      "boxes[0].guardian",
      "boxes[0].swimBadge",
      "boxes[0].tshirtSize",
      "boxes[1].allowedToCanoe",
      "boxes[1].allowedToSwim",
      "boxes[1].allowedToWander",
      "boxes[1].birthdateOfInsured",
      "boxes[1].canSwim",
      "boxes[1].child.birthDate",
      "boxes[1].newGuardian.lastName",
      "boxes[1].swimBadge",
      "boxes[1].tshirtSize",
    ]);
    expect(problems["boxes[0].guardian"]).toEqual(["Mia ist bei Beginn der Veranstaltung noch nicht 18: Bitte wähle eine erziehungsberechtigte Person."]);
  });

  it("accepts a guardian typed into another box, but not a reference to itself or to a box without one", () => {
    const ok = checkBoxes([{ participant: "neu", child: newChild, guardian: "neu", newGuardian: { firstName: "Eva", lastName: "Muster" } }, { participant: "1", guardian: "box-0" }], context());
    expect(ok).toEqual({});
    const wrong = checkBoxes([{ participant: "1", guardian: "box-0" }, { participant: "neu", child: newChild, guardian: "box-0" }], context());
    expect(Object.keys(wrong)).toEqual(["boxes[0].guardian", "boxes[1].guardian"]);
  });

  it("refuses foreign ids, children already registered and a child in two boxes", () => {
    expect(checkBoxes([{ participant: "99", guardian: "7" }], context())).toEqual({ "boxes[0].participant": ["Bitte wähle ein Kind aus oder lege eines an."] });
    expect(checkBoxes([{ participant: "1", guardian: "8" }], context())["boxes[0].guardian"]).toHaveLength(1);
    expect(checkBoxes([{ participant: "1", guardian: "7" }], context({ registeredIds: new Set([1]) }))["boxes[0].participant"]).toEqual([
      "Mia Muster ist bereits für diese Veranstaltung angemeldet.",
    ]);
    expect(checkBoxes([{ participant: "1", guardian: "7" }, { participant: "1", guardian: "7" }], context())["boxes[1].participant"]).toEqual([
      "Mia steht schon in einem anderen Kasten.",
    ]);
  });
});

describe("permission questions and the guardian choice (review at 360 px)", () => {
  const permits = context({ event: { dateFrom: "2030-07-01", tshirtSizeRequired: false, swimBadgeRequired: false, permitsRequired: true } });

  it("names each unanswered permission question in its own message", () => {
    const problems = checkBoxes([{ participant: "1", guardian: "7", allowedToSwim: "ja" }], permits);
    expect(problems["boxes[0].allowedToWander"]).toEqual(["„Darf wandern gehen?“ Bitte wähle Ja oder Nein."]);
    expect(problems["boxes[0].canSwim"]).toEqual(["„Kann schwimmen?“ Bitte wähle Ja oder Nein."]);
    expect(problems["boxes[0].allowedToCanoe"]).toEqual(["„Darf Kanu fahren?“ Bitte wähle Ja oder Nein."]);
    expect(problems["boxes[0].allowedToSwim"]).toBeUndefined();
  });

  it("takes 'Keine (ab 18 Jahren)' as no guardian: fine for an adult, refused for a minor", () => {
    const adult = context({ children: new Map([[1, { id: 1, firstName: "Jan", lastName: "Muster", birthDate: "2000-01-01" }]]) });
    expect(checkBoxes([{ participant: "1", guardian: "keine" }], adult)).toEqual({});
    expect(checkBoxes([{ participant: "1", guardian: "" }], adult)).toEqual({});
    expect(checkBoxes([{ participant: "1", guardian: "keine" }], context())["boxes[0].guardian"]).toEqual([
      "Mia ist bei Beginn der Veranstaltung noch nicht 18: Bitte wähle eine erziehungsberechtigte Person.",
    ]);
  });
});

describe("a new child's missing field does not hide the guardian's rule (forms' audit)", () => {
  // Nearly every parent enrolling for the first time has no guardian in the account yet: the
  // first answer named only the empty street, the second then asked for the guardian.
  it("asks for the guardian in the same answer as for the child's other fields", () => {
    const problems = checkBoxes([{ participant: "neu", child: { ...newChild, street: "" }, guardian: "" }], context());
    expect(problems).toEqual({
      "boxes[0].child.street": ["Bitte gib Straße und Hausnummer an."],
      "boxes[0].guardian": ["Ida ist bei Beginn der Veranstaltung noch nicht 18: Bitte wähle eine erziehungsberechtigte Person."],
    });
  });

  it("without a first name it says 'Das Kind'; a birth date that is wrong or missing decides nothing", () => {
    expect(checkBoxes([{ participant: "neu", child: { ...newChild, firstName: "" }, guardian: "" }], context())["boxes[0].guardian"]).toEqual([
      "Das Kind ist bei Beginn der Veranstaltung noch nicht 18: Bitte wähle eine erziehungsberechtigte Person.",
    ]);
    expect(checkBoxes([{ participant: "neu", child: { ...newChild, street: "", birthDate: "" }, guardian: "" }], context())["boxes[0].guardian"]).toBeUndefined();
    expect(checkBoxes([{ participant: "neu", child: { ...newChild, birthDate: "2031-01-01" }, guardian: "" }], context())["boxes[0].guardian"]).toBeUndefined();
    const adult = { ...newChild, street: "", birthDate: "2000-01-01" };
    expect(checkBoxes([{ participant: "neu", child: adult, guardian: "" }], context())["boxes[0].guardian"]).toBeUndefined();
  });
});

describe("mergeProblems", () => {
  it("keeps the first list's messages for a field", () => {
    expect(mergeProblems({ a: ["eins"] }, { a: ["zwei"], b: ["drei"] })).toEqual({ a: ["eins"], b: ["drei"] });
  });
});
