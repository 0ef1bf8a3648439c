// 'Protokoll': the audit log, newest first, filtered by kind, in pages; who, when, what, and the
// reason where one was given.
import { Fragment } from "react";
import { formatDate, formatTime } from "~/lib/dates";
import type { ProtocolEntry } from "~/models/admin.server";
import { panelHref, PROTOCOL_KINDS, type ProtocolKind } from "~/schemas/admin";
import { AdminPager } from "./admin-pager";

type Entry = Omit<ProtocolEntry, "createdAt"> & { createdAt: string | Date };
export type ProtocolData = { entries: Entry[]; total: number; page: number; pages: number };

/** What the app does by itself (no one's account): a place offered to the waiting list, an offer run out. */
const AUTOMATIC = ["registration.offered", "registration.offer_expired"];

const ACTIONS: Record<string, string> = {
  "registration.accepted": "Anmeldung angenommen",
  "registration.rejected": "Anmeldung abgelehnt",
  "registration.cancelled": "Anmeldung storniert",
  "registration.rejection_revoked": "Ablehnung aufgehoben",
  "registration.moved_up": "Von der Warteliste nachgerückt",
  "registration.payment_confirmed": "Bezahlung bestätigt",
  "registration.payment_revoked": "Bezahlung widerrufen",
  "registration.offered": "Platz angeboten",
  "registration.offer_accepted": "Angebotenen Platz angenommen",
  "registration.offer_declined": "Angebotenen Platz freigegeben",
  "registration.offer_expired": "Platzangebot abgelaufen",
  "registration.offer_shortened": "Platzangebot verkürzt (Beginn vorverlegt)",
  "registration.offer_extended": "Platzangebot verlängert (Beginn später gelegt)",
  "helper.accepted": "Mitarbeiter*in angenommen",
  "helper.declined": "Mitarbeiter*in abgelehnt",
  "helper.reset": "Entscheidung über Mitarbeiter*in zurückgenommen",
  "user.admin_granted": "Adminrechte gegeben",
  "user.admin_revoked": "Adminrechte entzogen",
  "user.deactivated": "Konto deaktiviert",
  "user.reactivated": "Konto reaktiviert",
  "legal.uploaded": "Dokument hochgeladen",
  "event.deleted": "Veranstaltung gelöscht",
  "event.place_added": "Platz hinzugefügt (Nachrücken)",
  "retention.run": "Aufbewahrungsfristen angewandt",
};

const ENTITY: Record<string, string> = {
  registration: "Anmeldung",
  helper: "Mitarbeiter*in",
  user: "Konto",
  legal: "Dokument",
  event: "Veranstaltung",
  system: "System",
};

function text(value: unknown) {
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}

/** What a data-minimisation run did: counts only. */
const COUNTS: [string, string][] = [
  ["healthData", "Anmeldungen bereinigt"],
  ["comments", "Kommentare gelöscht"],
  ["sepaMandates", "SEPA-Mandate gelöscht"],
  ["registrations", "Anmeldungen gelöscht"],
  ["helperChecks", "Nachweise von Mitarbeiter*innen gelöscht"],
  ["helperChecksCleared", "Nachweise von Mitarbeiter*innen gelöscht"], // the hourly job's entries before 2026-11-23
  ["mails", "E-Mails gelöscht"],
];

type Part = { text: string; href?: string };
type About = Pick<ProtocolEntry, "kind" | "entityId" | "details" | "person" | "event"> & { accountId?: number | null };

/** What the entry is about: names looked up while they exist, else the small details the writers
 * keep (a name, a title, a document and its version, counts). A person whose account exists links
 * to it, so that namesakes are told apart. */
function subjectParts(entry: About): Part[] {
  const d = entry.details;
  const parts: Part[] = [];
  const person = entry.person ?? text(d.name);
  const event = entry.event ?? text(d.title) ?? text(d.event);
  const document = text(d.document);
  if (document) parts.push({ text: `${document}${text(d.version) ? ` (Version ${text(d.version)})` : ""}${text(d.fileName) ? `: ${text(d.fileName)}` : ""}` });
  if (person) parts.push({ text: person, href: entry.accountId ? `/account/${entry.accountId}` : undefined });
  if (event) parts.push({ text: event });
  if (entry.kind === "system") {
    for (const [key, label] of COUNTS) if (typeof d[key] === "number") parts.push({ text: `${label}: ${d[key]}` });
  }
  if (parts.length === 0 && entry.entityId !== null) parts.push({ text: `${ENTITY[entry.kind] ?? "Eintrag"} Nr. ${entry.entityId}` });
  return parts;
}

export function subjectOf(entry: About) {
  return subjectParts(entry)
    .map((part) => part.text)
    .join(" · ");
}

function Subject({ parts }: { parts: Part[] }) {
  return (
    <span className="admin-protocol-subject">
      {": "}
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? " · " : null}
          {part.href ? <a href={part.href}>{part.text}</a> : part.text}
        </Fragment>
      ))}
    </span>
  );
}

function Actor({ entry }: { entry: Entry }) {
  if (entry.actor === null) return <>{entry.kind === "system" || AUTOMATIC.includes(entry.action) ? "System" : "Gelöschtes Konto"}</>;
  return entry.actorId ? <a href={`/account/${entry.actorId}`}>{entry.actor}</a> : <>{entry.actor}</>;
}

export function AdminProtocol({ data, kind }: { data: ProtocolData; kind: ProtocolKind | null }) {
  return (
    // A part of the tab's region, which is named "Protokoll" (gott.tsx): no second region of that name.
    <div>
      <h2 id="admin-protocol">Protokoll</h2>
      <form method="get" action="/gott" className="admin-search">
        <input type="hidden" name="tab" value="protokoll" />
        <label htmlFor="admin-protocol-kind">Art</label>
        <div className="admin-search-row">
          <select id="admin-protocol-kind" name="art" defaultValue={kind ?? ""}>
            <option value="">Alle</option>
            {Object.entries(PROTOCOL_KINDS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <button type="submit">Anzeigen</button>
        </div>
      </form>
      {data.entries.length === 0 ? (
        <p>Noch keine Einträge vorhanden.</p>
      ) : (
        <div className="admin-protocol-table-wrap">
          <table className="admin-protocol">
            <thead>
              <tr>
                <th scope="col">Wann</th>
                <th scope="col">Wer</th>
                <th scope="col">Was</th>
                <th scope="col">Begründung</th>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((entry) => {
                const at = new Date(entry.createdAt);
                const subject = subjectParts(entry);
                return (
                  <tr key={entry.id}>
                    <td data-label="Wann">
                      {formatDate(at)} {formatTime(at)}
                    </td>
                    <td data-label="Wer">
                      <Actor entry={entry} />
                    </td>
                    <td data-label="Was">
                      {ACTIONS[entry.action] ?? "Änderung"}
                      {subject.length ? <Subject parts={subject} /> : null}
                    </td>
                    <td data-label="Begründung">{text(entry.details.reason) ?? ""}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <AdminPager page={data.page} pages={data.pages} hrefOf={(page) => panelHref({ tab: "protokoll", kind, page })} label="Seiten des Protokolls" />
    </div>
  );
}
