// The admin panel: Veranstaltungsverwaltung (default), Benutzerverwaltung, the protocol, and the
// legal documents below. Admins only, in the loader and in the action (the spec's admin guard:
// anyone else goes to /).
import { parseWithZod } from "~/services/parse-form.server";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { isRouteErrorResponse, useActionData, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { AdminEvents } from "~/components/admin-events";
import { AdminLegal, type LegalFailure, type LegalRow } from "~/components/admin-legal";
import { AdminProtocol } from "~/components/admin-protocol";
import { AdminRetention } from "~/components/admin-retention";
import { AdminUsers, WAITS_FOR_REACTIVATION, type AdminStep } from "~/components/admin-users";
import { FormAlert, type Alert } from "~/components/forms";
import { errorText } from "~/lib/http-errors";
import { listAdminEvents, listAdminUsers, listProtocol, setAdminRole, setUserActive, type AdminChange } from "~/models/admin.server";
import { retentionLastRun, retentionPreview, runRetention } from "~/models/retention.server";
import { submissionKeyOf } from "~/models/form-submission.server";
import { currentLegalVersions, LEGAL_DOCUMENTS, LEGAL_TYPES, legalUrl, saveLegalVersions } from "~/models/legal.server";
import { panelHref, readPanelQuery, userActionSchema, type AdminTab, type UserAction } from "~/schemas/admin";
import { settings } from "~/services/env.server";
import { redirectWithFlash } from "~/services/flash.server";
import { readForm } from "~/services/form.server";
import { readLegalForm, UPLOAD_FAILED } from "~/services/legal-form.server";
import { requireAdmin } from "~/services/session.server";
import { removeStoredFile } from "~/services/uploads.server";
import { randomToken } from "~/services/tokens.server";

export const handle = { hydrate: true };
export const meta: MetaFunction = () => [{ title: "Admin Panel – Lagerfeuer" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const search = new URL(request.url).searchParams;
  const query = readPanelQuery(search);
  const users = query.tab === "benutzer" ? listAdminUsers({ query: query.q, page: query.page }) : null;
  const current = currentLegalVersions();
  const documents: LegalRow[] = LEGAL_TYPES.map((type) => {
    const version = current[type];
    return {
      field: LEGAL_DOCUMENTS[type].field,
      label: LEGAL_DOCUMENTS[type].label,
      url: legalUrl(type),
      current: version ? { version: version.version, fileName: version.fileName, uploadedAt: version.uploadedAt.toISOString() } : null,
    };
  });
  return json({
    me: admin.id,
    query,
    documents,
    events: query.tab === "veranstaltungen" ? listAdminEvents() : null,
    users,
    step: users ? userStep(search, [...users.admins, ...users.users], admin.id) : null,
    protocol: query.tab === "protokoll" ? listProtocol({ kind: query.kind, page: query.page }) : null,
    retention: query.tab === "protokoll" ? { preview: retentionPreview(), settings: settings().retention, lastRun: retentionLastRun(), asked: search.get("frage") === "datensparsamkeit" } : null,
    // One-time keys: the upload and the run are done once however often their forms are sent.
    legalKey: randomToken(),
    retentionKey: randomToken(),
  });
}

/** The change asked about (`?frage=…&nutzer=…`) for a person on this page of the list, if it can be made. */
function userStep(search: URLSearchParams, rows: { id: number; firstName: string; lastName: string; role: string; banned: boolean }[], me: number): AdminStep | null {
  const intent = search.get("frage");
  const row = rows.find((r) => String(r.id) === search.get("nutzer"));
  if (!row || row.id === me) return null;
  const asked = (intent === "grant-admin" && row.role !== "admin") || (intent === "revoke-admin" && row.role === "admin") || (intent === "deactivate" && !row.banned);
  return asked ? { intent, userId: row.id, name: `${row.firstName} ${row.lastName}`, inactive: row.banned } : null;
}

type ActionData = { alert?: Alert; legal?: LegalFailure };

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const REFUSED: Record<UserAction["intent"], Record<Exclude<AdminChange, { ok: true }>["reason"], string>> = {
  "grant-admin": { not_found: "Nutzer*in nicht gefunden", self: "", last_admin: "" },
  "revoke-admin": {
    not_found: "Nutzer*in nicht gefunden",
    self: "Du kannst dir die Adminrechte nicht selbst entziehen.",
    last_admin: "Es muss mindestens einen aktiven Admin geben: Dem letzten aktiven Admin können die Adminrechte nicht entzogen werden.",
  },
  deactivate: {
    not_found: "Nutzer*in nicht gefunden",
    self: "Du kannst dich nicht selbst deaktivieren.",
    last_admin: "Es muss mindestens einen aktiven Admin geben: Der letzte aktive Admin kann nicht deaktiviert werden.",
  },
  reactivate: { not_found: "Nutzer*in nicht gefunden", self: "", last_admin: "" },
};

const STATUS_OF_REASON = { not_found: 404, self: 403, last_admin: 409 } as const;

function doneFlash(intent: UserAction["intent"], name: string, banned: boolean) {
  switch (intent) {
    case "grant-admin":
      return { title: "Adminrechte gegeben", message: `${name} ist jetzt Admin.${banned ? ` ${WAITS_FOR_REACTIVATION(name)}` : ""}` };
    case "revoke-admin":
      return { title: "Adminrechte entzogen", message: `${name} ist jetzt bei den Nutzenden.` };
    case "deactivate":
      return { title: "Konto deaktiviert", message: `${name} ist abgemeldet und kann sich nicht mehr anmelden. Anmeldungen und Daten bleiben erhalten.` };
    case "reactivate":
      return { title: "Konto reaktiviert", message: `${name} kann sich wieder anmelden.` };
  }
}

export async function action({ request }: ActionFunctionArgs) {
  // Checked before the body is read (a stranger's upload is not read) and again once it is in: a
  // body may take minutes, and rights taken meanwhile count (attack probe).
  await requireAdmin(request);
  const url = new URL(request.url);
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    const read = await readLegalForm(request);
    const admin = await requireAdmin(request).catch(async (refusal: unknown) => {
      if (read.ok) await Promise.all(read.uploads.map((u) => removeStoredFile("legal", u.file.key)));
      throw refusal;
    });
    if (!read.ok) return json<ActionData>({ legal: { title: UPLOAD_FAILED, messages: read.messages } }, { status: read.status });
    let saved;
    try {
      const result = saveLegalVersions(read.uploads, admin.id, read.submissionKey);
      // The same form again: the first one's versions answer, this one's files go.
      if (result.repeated) await Promise.all(read.uploads.map((u) => removeStoredFile("legal", u.file.key)));
      saved = result.saved;
    } catch (error) {
      await Promise.all(read.uploads.map((u) => removeStoredFile("legal", u.file.key)));
      throw error;
    }
    const back = readPanelQuery(url.searchParams);
    return redirectWithFlash(panelHref(back), {
      kind: "success",
      title: "Upload erfolgt",
      message: saved.map((s) => `${LEGAL_DOCUMENTS[s.type].label} (Version ${s.version})`).join(", "),
    });
  }

  const form = await readForm(request);
  const admin = await requireAdmin(request);
  if (form.get("intent") === "run-retention") {
    const done = runRetention(new Date(), admin.id, submissionKeyOf(form));
    return redirectWithFlash(panelHref({ tab: "protokoll" }), {
      kind: "success",
      title: "Datensparsamkeit ausgeführt",
      message: `${count(done.healthData, "Anmeldung", "Anmeldungen")} bereinigt, ${count(done.comments, "Kommentar", "Kommentare")}, ${count(done.sepaMandates, "SEPA-Mandat", "SEPA-Mandate")}, ${count(done.registrations, "Anmeldung", "Anmeldungen")}, die Nachweise von ${count(done.helperChecks, "Mitarbeiter*in", "Mitarbeiter*innen")} und ${count(done.mails, "E-Mail", "E-Mails")} gelöscht.`,
    });
  }
  const submission = parseWithZod(form, { schema: userActionSchema });
  if (submission.status !== "success") {
    return json<ActionData>({ alert: { title: "Das hat nicht geklappt", message: "Ungültige Angaben" } }, { status: 400 });
  }
  const { intent, userId, q, seite } = submission.value;
  const result =
    intent === "grant-admin" || intent === "revoke-admin"
      ? setAdminRole(admin, userId, intent === "grant-admin")
      : setUserActive(admin, userId, intent === "reactivate");
  if (!result.ok) {
    const message = REFUSED[intent][result.reason] || "Ungültige Angaben";
    return json<ActionData>({ alert: { title: "Das hat nicht geklappt", message } }, { status: STATUS_OF_REASON[result.reason] });
  }
  return redirectWithFlash(panelHref({ tab: "benutzer", q, page: seite }), { kind: "success", ...doneFlash(intent, result.name, result.banned) });
}

const TABS: [AdminTab, string][] = [
  ["veranstaltungen", "Veranstaltungsverwaltung"],
  ["benutzer", "Benutzerverwaltung"],
  ["protokoll", "Protokoll"],
];

export default function AdminPanel() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const { pathname, search } = useLocation();
  const { query } = data;
  return (
    <>
      <h1>Admin Panel</h1>
      <nav className="tabs" aria-label="Admin Panel">
        {TABS.map(([tab, label]) => (
          <a key={tab} href={panelHref({ tab })} className={query.tab === tab ? "button" : "button secondary"} aria-current={query.tab === tab ? "page" : undefined}>
            {label}
          </a>
        ))}
      </nav>
      <FormAlert alert={actionData?.alert} />
      <section aria-label={TABS.find(([tab]) => tab === query.tab)![1]} className="admin-tab">
        {data.events ? <AdminEvents cards={data.events} /> : null}
        {data.users ? <AdminUsers data={data.users} me={data.me} q={query.q} step={data.step} /> : null}
        {data.protocol ? <AdminProtocol data={data.protocol} kind={query.kind} /> : null}
        {data.retention ? <AdminRetention {...data.retention} submissionKey={data.retentionKey} /> : null}
      </section>
      <AdminLegal rows={data.documents} submissionKey={data.legalKey} failure={actionData?.legal ?? null} action={`${pathname}${search}#admin-legal`} />
    </>
  );
}

/** The spec's error texts when the panel cannot be listed. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status < 500) {
    const text = errorText(error.status);
    return (
      <section className="error-page" aria-labelledby="admin-error">
        <h1 id="admin-error">{text.title}</h1>
        <p>{text.message}</p>
      </section>
    );
  }
  return (
    <section className="error-page" aria-labelledby="admin-error">
      <h1 id="admin-error">Fehler bei der Auflistung</h1>
      <p>Es gab ein Problem mit den Freizeiten.</p>
    </section>
  );
}
