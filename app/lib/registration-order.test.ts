import { expect, it } from "vitest";
import { sortMyRegistrations } from "./registration-order";

it("puts open registrations before the waiting list (in its order) and turned-down ones last", () => {
  const row = (firstName: string, applicationStatus: string, waitingListPosition: number | null = null) => ({ firstName, lastName: "Muster", applicationStatus, paid: false, waitingListPosition });
  const rows = [row("Abgelehnt", "rejected"), row("Warte2", "open", 2), row("Offen", "open"), row("Warte1", "open", 1), row("Bestätigt", "accepted")];
  expect(sortMyRegistrations(rows).map((r) => r.firstName)).toEqual(["Bestätigt", "Offen", "Warte1", "Warte2", "Abgelehnt"]);
});
