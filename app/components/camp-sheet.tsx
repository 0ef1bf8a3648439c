// One printed page per group for the day without internet (issue 11 item 5): the children with
// age, guardian and both phones, special needs, swim badge, permissions and insurance; the
// group's helpers with phone. The print stylesheet (app.css, issue 11) makes it A4 with a page
// break after each group.
import { formatIsoDate } from "~/lib/dates";
import type { SheetChild, SheetGroup } from "~/models/camp-sheet.server";
import { PhoneLink } from "./phone-link";

type Child = SheetChild;
export type CampSheetGroup = SheetGroup;
type SheetEvent = { title: string; dateFrom: string; dateTo: string | null; location: string };

function yesNo(value: boolean | null) {
  return value === null ? "keine Angabe" : value ? "Ja" : "Nein";
}

function dates(event: SheetEvent) {
  return event.dateTo && event.dateTo !== event.dateFrom
    ? `${formatIsoDate(event.dateFrom)} – ${formatIsoDate(event.dateTo)}`
    : formatIsoDate(event.dateFrom);
}

function ChildRow({ child }: { child: Child }) {
  return (
    <tr className={child.noEmergencyContact ? "no-contact" : undefined}>
      <th scope="row">
        {child.lastName}, {child.firstName}
        <br />
        <span className="sheet-small">
          {formatIsoDate(child.birthDate)} · {child.age} Jahre
        </span>
      </th>
      <td data-label="Erziehungsberechtigte*r">
        {child.guardianName ?? "–"}
        {child.mobilePhone ? <div className="phone">Mobil: <PhoneLink number={child.mobilePhone} /></div> : null}
        {child.phone ? <div className="phone">Tel.: <PhoneLink number={child.phone} /></div> : null}
        {child.noEmergencyContact ? <strong className="missing-contact">Notfallkontakt fehlt!</strong> : null}
      </td>
      <td className="pre-line" data-label="Besonderheiten">
        {child.specialNeeds || "–"}
      </td>
      <td className="sheet-small" data-label="Schwimmen, Erlaubnisse">
        Schwimmabzeichen: {child.swimBadge ?? "Keines"}
        <br />
        Darf wandern gehen: {yesNo(child.allowedToWander)}
        <br />
        Darf schwimmen gehen: {yesNo(child.allowedToSwim)}
        <br />
        Kann schwimmen: {yesNo(child.canSwim)}
        <br />
        Darf Kanu fahren: {yesNo(child.allowedToCanoe)}
      </td>
      <td className="sheet-small" data-label="Versicherung">
        {child.nameOfInsured || "–"}
        {child.birthdateOfInsured ? <div>geb. {formatIsoDate(child.birthdateOfInsured)}</div> : null}
      </td>
    </tr>
  );
}

export function CampSheet({ event, group, printedAt }: { event: SheetEvent; group: CampSheetGroup; printedAt: string }) {
  const titleId = `sheet-${group.id ?? "ohne"}`;
  const missing = group.children.filter((c) => c.noEmergencyContact).length;
  return (
    <section className="camp-sheet-group" aria-labelledby={titleId} data-group={group.id ?? "ohne"}>
      <header className="sheet-head">
        <h2 id={titleId}>{group.id === null ? group.name : `Gruppe ${group.name}`}</h2>
        <p>
          {event.title} · {dates(event)} · {event.location}
          <br />
          <span className="sheet-small">Stand: {printedAt}</span>
        </p>
      </header>
      <h3>Mitarbeiter*innen</h3>
      {group.helpers.length ? (
        <ul className="sheet-helpers">
          {group.helpers.map((h) => (
            <li key={h.userId}>
              {h.firstName} {h.lastName}: <span className="phone">{h.phone ? <PhoneLink number={h.phone} /> : "Telefon unbekannt"}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Keine Mitarbeiter*innen in dieser Gruppe.</p>
      )}
      <h3>
        Teilnehmer*innen ({group.children.length})
        {missing ? <span className="missing-contact"> – {missing}× Notfallkontakt fehlt!</span> : null}
      </h3>
      {group.children.length ? (
        <div className="table-scroll">
          <table className="camp-sheet-table">
            <thead>
              <tr>
                <th scope="col">Name, Alter</th>
                <th scope="col">Erziehungsberechtigte*r, Telefon</th>
                <th scope="col">Besonderheiten</th>
                <th scope="col">Schwimmen, Erlaubnisse</th>
                <th scope="col">Versicherung</th>
              </tr>
            </thead>
            <tbody>
              {group.children.map((child) => (
                <ChildRow key={child.registrationId} child={child} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">Keine Teilnehmer*innen in dieser Gruppe.</p>
      )}
    </section>
  );
}
