// Helper checks (DECISIONS.md 'Helper checks'): an extended police certificate (§72a SGB VIII)
// inspected no more than five years before the event's last day, and a Juleica valid until the
// event's last day. The rules are judged against the event's last day (dateTo, else dateFrom),
// because the helper must be covered for the whole camp.
import { formatIsoDate } from "./dates";

export type HelperCheckRecord = {
  policeCertificateCheckedOn: string | null;
  policeCertificateCheckedBy: string | null;
  juleicaNumber: string | null;
  juleicaExpiresOn: string | null;
};

export type CheckWarning = { kind: "certificate-missing" | "certificate-old" | "juleica-expired" | "juleica-expires"; text: string };

export const CERTIFICATE_YEARS = 5;

/** YYYY-MM-DD plus whole years; 29 February becomes 28 February in a common year. */
export function addYears(date: string, years: number) {
  const [y, m, d] = date.split("-").map(Number);
  const target = y + years;
  const leap = (target % 4 === 0 && target % 100 !== 0) || target % 400 === 0;
  const day = m === 2 && d === 29 && !leap ? 28 : d;
  return `${String(target).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The last day of the event, YYYY-MM-DD. */
export function eventLastDay(event: { dateFrom: string; dateTo: string | null }) {
  return event.dateTo && event.dateTo > event.dateFrom ? event.dateTo : event.dateFrom;
}

/** The certificate is good through the day five years after its inspection. */
export function certificateValidUntil(checkedOn: string) {
  return addYears(checkedOn, CERTIFICATE_YEARS);
}

/**
 * What is missing for this helper at this event. `today` (YYYY-MM-DD) tells 'abgelaufen' (already
 * expired) from 'läuft vor Ende der Veranstaltung ab' (expires before the last day).
 */
export function checkWarnings(record: HelperCheckRecord, lastDay: string, today: string): CheckWarning[] {
  const warnings: CheckWarning[] = [];
  const checkedOn = record.policeCertificateCheckedOn;
  if (!checkedOn) {
    warnings.push({ kind: "certificate-missing", text: "Erweitertes Führungszeugnis fehlt" });
  } else if (certificateValidUntil(checkedOn) < lastDay) {
    warnings.push({
      kind: "certificate-old",
      text: `Erweitertes Führungszeugnis älter als fünf Jahre (eingesehen am ${formatIsoDate(checkedOn)})`,
    });
  }
  const expires = record.juleicaExpiresOn;
  if (expires && expires < lastDay) {
    warnings.push(
      expires < today
        ? { kind: "juleica-expired", text: `Juleica abgelaufen (am ${formatIsoDate(expires)})` }
        : { kind: "juleica-expires", text: `Juleica läuft vor Ende der Veranstaltung ab (am ${formatIsoDate(expires)})` },
    );
  }
  return warnings;
}
