// Benutzerverwaltung: search, the lists 'Admin' and 'Nutzende' (sorted by surname), a user bar
// per person with role and activity buttons; plain forms, so they work without JavaScript.
import { Form, Link } from "@remix-run/react";
import { ConfirmActions, ConfirmDialog, STEP_ANCHOR, useStepLink } from "~/components/confirm-dialog";
import type { AdminUserRow } from "~/models/admin.server";
import { panelHref, SEARCH_MAX } from "~/schemas/admin";
import { AdminPager } from "./admin-pager";

export type AdminUsersData = { admins: AdminUserRow[]; users: AdminUserRow[]; total: number; page: number; pages: number };

/** Rights can be given to a deactivated account ahead; they count once it is reactivated. */
export const WAITS_FOR_REACTIVATION = (name: string) => `Das Konto ist deaktiviert: Anmelden kann sich ${name} erst, wenn es reaktiviert ist.`;

/** Changes that give a person every family's data, or take their rights or sign-in at once: asked first. */
const ADMIN_STEPS = {
  "grant-admin": {
    title: "Adminrechte geben",
    text: (name: string, inactive: boolean) =>
      `${name} sieht und ändert danach alle Veranstaltungen, alle Anmeldungen mit den Daten der Familien und Kontodaten, alle Konten und die Rechtstexte.${inactive ? ` ${WAITS_FOR_REACTIVATION(name)}` : ""}`,
    label: "Adminrechte geben",
  },
  "revoke-admin": {
    title: "Adminrechte entziehen",
    // A lead person keeps their events' rights (DECISIONS.md), families' data included: said, so
    // that no admin relies on this step to cut that off (leaders' review).
    text: (name: string) =>
      `${name} verliert die Adminrechte: Andere Veranstaltungen, die Konten und die Rechtstexte sind danach nicht mehr zugänglich. Wo ${name} Leitung oder Helfer*in ist, bleiben diese Rechte, auch an den Daten der Familien; dafür ${name} dort als Leitung oder Helfer*in austragen.`,
    label: "Adminrechte entziehen",
  },
  deactivate: {
    title: "Konto deaktivieren",
    text: (name: string) => `${name} wird sofort abgemeldet und kann sich nicht mehr anmelden. Anmeldungen und Daten bleiben erhalten; reaktivieren geht jederzeit.`,
    label: "Deaktivieren",
  },
} as const;
export type AdminStep = { intent: keyof typeof ADMIN_STEPS; userId: number; name: string; inactive: boolean };

function ActionButton({ row, intent, label, q, page }: { row: AdminUserRow; intent: string; label: string; q: string; page: number }) {
  return (
    <Form method="post" action={panelHref({ tab: "benutzer", q, page })} className="admin-user-action">
      <UserFields userId={row.id} q={q} page={page} />
      <button type="submit" name="intent" value={intent} className="secondary" aria-label={`${label}: ${row.firstName} ${row.lastName}`}>
        {label}
      </button>
    </Form>
  );
}

function UserFields({ userId, q, page }: { userId: number; q: string; page: number }) {
  return (
    <>
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="q" value={q} />
      <input type="hidden" name="seite" value={page} />
    </>
  );
}

/** A link to the step of `intent` for `row`, on the same page of the list. */
function StepLink({ row, intent, q, page }: { row: AdminUserRow; intent: AdminStep["intent"]; q: string; page: number }) {
  const list = panelHref({ tab: "benutzer", q, page });
  const href = `${list}${list.includes("?") ? "&" : "?"}frage=${intent}&nutzer=${row.id}#${STEP_ANCHOR}`;
  return (
    <Link {...useStepLink(href)} preventScrollReset className="button secondary" aria-label={`${ADMIN_STEPS[intent].label}: ${row.firstName} ${row.lastName}`}>
      {ADMIN_STEPS[intent].label}
    </Link>
  );
}

function AdminUserStep({ step, q, page }: { step: AdminStep; q: string; page: number }) {
  const texts = ADMIN_STEPS[step.intent];
  const list = panelHref({ tab: "benutzer", q, page });
  return (
    <ConfirmDialog title={texts.title} cancelUrl={list} stepKey={`${step.intent}-${step.userId}`}>
      <p>{texts.text(step.name, step.inactive)}</p>
      <Form method="post" action={list}>
        <UserFields userId={step.userId} q={q} page={page} />
        <ConfirmActions label={texts.label} cancelUrl={list} intent={step.intent} />
      </Form>
    </ConfirmDialog>
  );
}

/** The spec's text for an empty list; after a search, instead, that the search found no one here. */
function EmptyList({ text, q }: { text: string; q: string }) {
  return q ? <p>Die Suche nach „{q}“ findet hier niemanden.</p> : <p>{text}</p>;
}

function UserBar({ row, me, q, page }: { row: AdminUserRow; me: number; q: string; page: number }) {
  const self = row.id === me;
  const name = `${row.firstName} ${row.lastName}`;
  return (
    <li className={row.banned ? "admin-user banned" : "admin-user"} aria-label={name}>
      <div className="admin-user-who">
        <strong>{name}</strong>
        <span className="admin-user-email">{row.email}</span>
        <span className={row.banned ? "status-word inactive" : "status-word active"}>{row.banned ? "Inaktiv" : "Aktiv"}</span>
        {self ? <span className="hint">Das bist du</span> : null}
      </div>
      <div className="actions">
        {row.role === "admin" ? (
          self ? null : (
            <StepLink row={row} intent="revoke-admin" q={q} page={page} />
          )
        ) : (
          <StepLink row={row} intent="grant-admin" q={q} page={page} />
        )}
        {row.banned ? (
          <ActionButton row={row} intent="reactivate" label="Reaktivieren" q={q} page={page} />
        ) : self ? null : (
          <StepLink row={row} intent="deactivate" q={q} page={page} />
        )}
        {/* Named with the person, as the row's other buttons: a screen reader's list of links
            read 'Details' sixty times (screens' review). */}
        <a href={self ? "/account" : `/account/${row.id}`} className="button secondary" aria-label={`Details: ${name}`}>
          Details
        </a>
      </div>
    </li>
  );
}

export function AdminUsers({ data, me, q, step }: { data: AdminUsersData; me: number; q: string; step: AdminStep | null }) {
  return (
    <>
      {step ? <AdminUserStep step={step} q={q} page={data.page} /> : null}
      <form method="get" action="/gott" className="admin-search" role="search">
        <input type="hidden" name="tab" value="benutzer" />
        <label htmlFor="admin-search-q">Name oder E-Mail</label>
        <div className="admin-search-row">
          <input id="admin-search-q" type="search" name="q" defaultValue={q} maxLength={SEARCH_MAX} />
          <button type="submit">Suchen</button>
          {q ? (
            <a href={panelHref({ tab: "benutzer" })} className="button secondary">
              Suche zurücksetzen
            </a>
          ) : null}
        </div>
      </form>
      <section aria-labelledby="admin-list-admins">
        <h2 id="admin-list-admins">Admin</h2>
        {data.admins.length ? (
          <ul className="admin-users">
            {data.admins.map((row) => (
              <UserBar key={row.id} row={row} me={me} q={q} page={data.page} />
            ))}
          </ul>
        ) : (
          <EmptyList text="Es gibt keine Admins" q={q} />
        )}
      </section>
      <section aria-labelledby="admin-list-users">
        <h2 id="admin-list-users">Nutzende</h2>
        {data.users.length ? (
          <>
            <p className="hint">
              {data.total} {data.total === 1 ? "Konto" : "Konten"}
              {q ? ` für „${q}“` : ""}
            </p>
            <ul className="admin-users">
              {data.users.map((row) => (
                <UserBar key={row.id} row={row} me={me} q={q} page={data.page} />
              ))}
            </ul>
          </>
        ) : (
          <EmptyList text="Es gibt keine Nutzenden" q={q} />
        )}
        <AdminPager page={data.page} pages={data.pages} hrefOf={(page) => panelHref({ tab: "benutzer", q, page })} label="Seiten der Nutzenden" />
      </section>
    </>
  );
}
