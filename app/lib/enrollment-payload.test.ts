import { describe, expect, it } from "vitest";
import { addBox, defaultGuardian, removeBox, takeOverChildAnswers, typedGuardians, valueAt, type Payload } from "./enrollment-payload";

describe("the enrolment form's boxes", () => {
  it("gives a new box the guardian of the box before it, also one only typed there", () => {
    const payload: Payload = { boxes: [{ participant: "neu", guardian: "neu", newGuardian: { firstName: "Eva", lastName: "Muster" } }] };
    addBox(payload, "key-2");
    addBox(payload, "key-3");
    expect(payload.boxes.map((b) => b.guardian)).toEqual(["neu", "box-0", "box-0"]);
    expect(typedGuardians(payload.boxes)).toEqual({ 0: "Eva Muster" });
    expect(valueAt(payload, "boxes[0].newGuardian.firstName")).toBe("Eva");
  });

  it("hands a removed box's typed guardian to the first box that named it", () => {
    const payload: Payload = {
      boxes: [
        { participant: "1", guardian: "neu", newGuardian: { firstName: "Eva" } },
        { participant: "2", guardian: "box-0" },
        { participant: "3", guardian: "box-0" },
        { participant: "4", guardian: "neu" },
        { participant: "5", guardian: "box-3" },
      ],
    };
    removeBox(payload, 0);
    expect(payload.boxes.map((b) => b.guardian)).toEqual(["neu", "box-0", "neu", "box-2"]);
    expect(payload.boxes[0].newGuardian).toEqual({ firstName: "Eva" });
  });

  it("fills a box with the chosen child's latest answers once, then keeps what was typed", () => {
    const child = { id: 7, tshirtSize: "M", swimBadge: null, specialNeeds: "Nuss", nameOfInsured: "", birthdateOfInsured: null, allowedToSwim: true };
    const payload: Payload = { boxes: [{ participant: "7", answersFor: "neu", tshirtSize: "" }] };
    takeOverChildAnswers(payload, [child]);
    expect(payload.boxes[0]).toMatchObject({ tshirtSize: "M", specialNeeds: "Nuss", allowedToSwim: "ja", allowedToWander: "", answersFor: "7" });
    payload.boxes[0].tshirtSize = "L";
    takeOverChildAnswers(payload, [child]);
    expect(payload.boxes[0].tshirtSize).toBe("L");
  });

  it("never starts a box with 'Keine' for a child: the child's last guardian, else the account's only one, else 'Bitte wählen'", () => {
    expect(defaultGuardian(undefined, [4])).toBe("4");
    expect(defaultGuardian(undefined, [4, 5])).toBe("");
    expect(defaultGuardian({ lastGuardianId: 5 }, [4, 5])).toBe("5");
    expect(defaultGuardian({ lastGuardianId: 9 }, [4, 5])).toBe("");
    const payload: Payload = { boxes: [{ participant: "1", guardian: "keine" }] };
    addBox(payload, "key-2");
    expect(payload.boxes[1].guardian).toBe("");
    const chosen: Payload = { boxes: [{ participant: "7", answersFor: "neu", guardian: "" }, { participant: "8", answersFor: "neu", guardian: "4" }] };
    const child = { id: 7, tshirtSize: null, swimBadge: null, specialNeeds: "", nameOfInsured: "", birthdateOfInsured: null, lastGuardianId: 5 };
    takeOverChildAnswers(chosen, [child, { ...child, id: 8, lastGuardianId: null }], [4, 5]);
    expect(chosen.boxes.map((b) => b.guardian)).toEqual(["5", "4"]);
  });
});
