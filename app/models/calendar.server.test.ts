import { describe, expect, it } from "vitest";
import { eventSpan } from "./calendar.server";

const wall = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")} ${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;

describe("the span of an event in the calendar", () => {
  it("start and end as Berlin wall-clock times", () => {
    const span = eventSpan({ dateFrom: "2027-07-10", timeFrom: "09:30", dateTo: "2027-07-16", timeTo: "16:00" });
    expect([wall(span.start), wall(span.end)]).toEqual(["2027-07-10 09:30", "2027-07-16 16:00"]);
  });

  it("without an end time: the start time on the last day, at least one hour after the start", () => {
    const days = eventSpan({ dateFrom: "2027-07-10", timeFrom: "09:30", dateTo: "2027-07-12", timeTo: null });
    expect(wall(days.end)).toBe("2027-07-12 09:30");
    const evening = eventSpan({ dateFrom: "2027-01-15", timeFrom: "18:00", dateTo: null, timeTo: null });
    expect(wall(evening.end)).toBe("2027-01-15 19:00");
    const overMidnight = eventSpan({ dateFrom: "2027-03-27", timeFrom: "23:30", dateTo: null, timeTo: null });
    expect(wall(overMidnight.end)).toBe("2027-03-28 00:30");
  });
});
