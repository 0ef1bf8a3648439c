// Tab 'Deine Teilnehmer*innen' of the account page: children and guardians, each child's
// registrations and the leaders' comments (read-only here).
import type { SerializeFrom } from "@remix-run/node";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { formatDate, formatIsoDate } from "~/lib/dates";
import type { getFamily } from "~/models/family.server";
import { SWIM_BADGES, TSHIRT_SIZES } from "~/lib/enums";
import { FormAlert, PlainInput, PlainSelect, PlainTextArea, useHydrated, type Alert } from "./forms";
import { RegistrationStatus } from "./registration-status";

type Family = SerializeFrom<ReturnType<typeof getFamily>>;
type Child = Family["children"][number];
type Guardian = Family["guardians"][number];

export type FamilyActionData = { intent: string | null; formId?: string; alert: Alert; errors?: Record<string, string[]>; values?: Record<string, string> } | undefined;

function serialize(form: HTMLFormElement) {
  return new URLSearchParams(new FormData(form) as unknown as Record<string, string>).toString();
}

/** A form whose save button waits (with JavaScript) until something was changed. */
function EditForm({
  formId,
  intent,
  id,
  submissionKey,
  children,
  actionData,
  label,
}: {
  formId: string;
  intent: string;
  id?: number;
  submissionKey?: string;
  children: ReactNode;
  actionData: FamilyActionData;
  label: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const { pathname, search } = useLocation();
  const ref = useRef<HTMLFormElement>(null);
  const alertBox = useRef<HTMLDivElement>(null);
  const initial = useRef("");
  const [dirty, setDirty] = useState(false);
  const mine = actionData?.formId === formId;
  useEffect(() => {
    if (ref.current) initial.current = serialize(ref.current);
  }, []);
  // A refused save: its message is where the person looks (with JavaScript the page stays put).
  useEffect(() => {
    if (mine && actionData?.alert) alertBox.current?.focus();
  }, [mine, actionData]);
  const onChange = () => setDirty(ref.current ? serialize(ref.current) !== initial.current : true);
  // Without JavaScript the answer opens at this form (its heading), not at the top of the page.
  const anchor = formId.endsWith("-new") ? `new-${formId.slice(0, -4)}` : formId;
  return (
    <Form method="post" action={`${pathname}${search}#${anchor}`} ref={ref} onInput={onChange} onChange={onChange} noValidate className="family-form">
      <div ref={alertBox} tabIndex={-1}>
        {mine ? <FormAlert alert={actionData?.alert} /> : null}
      </div>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="formId" value={formId} />
      {id !== undefined ? <input type="hidden" name="id" value={id} /> : null}
      {submissionKey ? <input type="hidden" name="submissionKey" value={submissionKey} /> : null}
      {children}
      <button type="submit" disabled={(hydrated && !dirty && !mine) || navigation.state === "submitting"}>
        {label}
      </button>
    </Form>
  );
}

type FieldProps = { formId: string; name: string; label: string; value: string | null; actionData: FamilyActionData };

/** What a field shows: after a refused save of its own form, what was sent; otherwise the record. */
function shown({ formId, name, value, actionData }: FieldProps) {
  const mine = actionData?.formId === formId;
  return {
    id: `${formId}-${name}`,
    defaultValue: mine && actionData?.values ? (actionData.values[name] ?? "") : (value ?? ""),
    errors: mine ? actionData?.errors?.[name] : undefined,
  };
}

function Input(props: FieldProps & { type?: string; max?: number; required?: boolean }) {
  return <PlainInput {...shown(props)} name={props.name} label={props.label} type={props.type} max={props.max} required={props.required} />;
}

/** Up to 300 characters (allergies, medicines): shown whole, as in the enrolment form. */
function TextArea(props: FieldProps & { max?: number }) {
  return <PlainTextArea {...shown(props)} name={props.name} label={props.label} max={props.max} />;
}

function Choice(props: FieldProps & { options: readonly string[]; empty: string }) {
  return <PlainSelect {...shown(props)} name={props.name} label={props.label} options={props.options.map((o) => [o, o] as const)} empty={props.empty} />;
}

function ChildFields({ formId, child, actionData }: { formId: string; child: Partial<Child>; actionData: FamilyActionData }) {
  const p = { formId, actionData };
  return (
    <>
      <div className="field-row">
        <Input {...p} name="firstName" label="Vorname" value={child.firstName ?? ""} max={50} required />
        <Input {...p} name="lastName" label="Nachname" value={child.lastName ?? ""} max={50} required />
      </div>
      <Input {...p} name="street" label="Straße und Hausnummer" value={child.street ?? ""} max={200} required />
      <div className="field-row">
        <Input {...p} name="postalCode" label="PLZ" value={child.postalCode ?? ""} max={20} />
        <Input {...p} name="city" label="Ort" value={child.city ?? ""} max={150} required />
      </div>
      <Input {...p} name="birthDate" label="Geburtsdatum" type="date" value={child.birthDate ?? ""} required />
      <div className="field-row">
        <Input {...p} name="municipality" label="Kreis" value={child.municipality ?? ""} max={100} />
        <Input {...p} name="amtsverwaltung" label="Amtsverwaltung" value={child.amtsverwaltung ?? ""} max={200} />
      </div>
      <div className="field-row">
        <Choice {...p} name="tshirtSize" label="T-Shirt-Größe" value={child.tshirtSize ?? ""} options={TSHIRT_SIZES} empty="Keine Angabe" />
        <Choice {...p} name="swimBadge" label="Schwimmabzeichen" value={child.swimBadge ?? ""} options={SWIM_BADGES} empty="Keines" />
      </div>
      <TextArea {...p} name="specialNeeds" label="Besonderheiten" value={child.specialNeeds ?? ""} max={300} />
    </>
  );
}

function GuardianFields({ formId, guardian, actionData }: { formId: string; guardian: Partial<Guardian>; actionData: FamilyActionData }) {
  const p = { formId, actionData };
  return (
    <>
      <div className="field-row">
        <Input {...p} name="firstName" label="Vorname" value={guardian.firstName ?? ""} max={50} required />
        <Input {...p} name="lastName" label="Nachname" value={guardian.lastName ?? ""} max={50} required />
      </div>
      <Input {...p} name="street" label="Straße und Hausnummer" value={guardian.street ?? ""} max={100} />
      <div className="field-row">
        <Input {...p} name="postalCode" label="PLZ" value={guardian.postalCode ?? ""} max={20} />
        <Input {...p} name="city" label="Ort" value={guardian.city ?? ""} max={150} />
      </div>
      <Input {...p} name="email" label="E-Mail" type="email" value={guardian.email ?? ""} max={150} />
      <div className="field-row">
        <Input {...p} name="mobilePhone" label="Mobil" type="tel" value={guardian.mobilePhone ?? ""} max={50} />
        <Input {...p} name="phone" label="Telefon" type="tel" value={guardian.phone ?? ""} max={50} />
      </div>
    </>
  );
}

/**
 * Each person's heading: the name, and a number from the second of the same name on (a child or
 * guardian saved twice, a guardian named as a child), so that every section has its own name.
 */
function numberedNames(people: { key: string; firstName: string; lastName: string }[]) {
  const seen = new Map<string, number>();
  return new Map(
    people.map((p) => {
      const name = `${p.firstName} ${p.lastName}`;
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      return [p.key, n > 1 ? `${name} (${n})` : name] as const;
    }),
  );
}

export function AccountFamily({
  children,
  guardians,
  keys,
  actionData,
}: {
  children: Child[];
  guardians: Guardian[];
  /** One-time keys of the two 'new' forms (a double submit creates one record). */
  keys: { child: string; guardian: string };
  actionData: FamilyActionData;
}) {
  const heading = numberedNames([...children.map((c) => ({ ...c, key: `child-${c.id}` })), ...guardians.map((g) => ({ ...g, key: `guardian-${g.id}` }))]);
  return (
    <>
      <h2>Kinder</h2>
      {children.length === 0 ? <p>Noch keine Kinder angelegt.</p> : null}
      {children.map((child) => (
        <section key={child.id} className="panel" aria-labelledby={`child-${child.id}`}>
          <h3 id={`child-${child.id}`}>{heading.get(`child-${child.id}`)}</h3>
          <EditForm formId={`child-${child.id}`} intent="participant" id={child.id} actionData={actionData} label="Speichern">
            <ChildFields formId={`child-${child.id}`} child={child} actionData={actionData} />
          </EditForm>
          <h4>Anmeldungen</h4>
          {child.registrations.length === 0 ? (
            <p>Keine Anmeldungen.</p>
          ) : (
            <ul>
              {child.registrations.map((r) => (
                <li key={r.id}>
                  <a href={`/freizeit/${r.eventId}`}>{r.title}</a> ({formatIsoDate(r.dateFrom)}): <RegistrationStatus registration={r} />
                  {r.enrolmentId !== null ? (
                    <>
                      {" "}
                      <a href={`/anmeldung/${r.enrolmentId}`}>Anmeldebestätigung</a>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <h4>Kommentare der Leitung</h4>
          {child.comments.length === 0 ? (
            <p>Keine Kommentare.</p>
          ) : (
            <ul className="comments">
              {child.comments.map((c) => (
                <li key={c.id}>
                  <p>{c.text}</p>
                  <p className="hint">
                    {c.authorFirstName ? `${c.authorFirstName} ${c.authorLastName}` : "Unbekannter Nutzer"}, {formatDate(new Date(c.createdAt))}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <section className="panel" aria-labelledby="new-child">
        <h3 id="new-child">Neues Kind anlegen</h3>
        {/* A new key after each save: the box starts empty again, so a second tap creates nothing (parents' review). */}
        <EditForm key={keys.child} formId="child-new" intent="participant" submissionKey={keys.child} actionData={actionData} label="Kind anlegen">
          <ChildFields formId="child-new" child={{}} actionData={actionData} />
        </EditForm>
      </section>

      <h2>Erziehungsberechtigte</h2>
      {guardians.length === 0 ? <p>Noch keine Erziehungsberechtigten angelegt.</p> : null}
      {guardians.map((g) => (
        <section key={g.id} className="panel" aria-labelledby={`guardian-${g.id}`}>
          <h3 id={`guardian-${g.id}`}>{heading.get(`guardian-${g.id}`)}</h3>
          <EditForm formId={`guardian-${g.id}`} intent="guardian" id={g.id} actionData={actionData} label="Speichern">
            <GuardianFields formId={`guardian-${g.id}`} guardian={g} actionData={actionData} />
          </EditForm>
        </section>
      ))}
      <section className="panel" aria-labelledby="new-guardian">
        <h3 id="new-guardian">Neue*n Erziehungsberechtigte*n anlegen</h3>
        <EditForm key={keys.guardian} formId="guardian-new" intent="guardian" submissionKey={keys.guardian} actionData={actionData} label="Person anlegen">
          <GuardianFields formId="guardian-new" guardian={{}} actionData={actionData} />
        </EditForm>
      </section>
    </>
  );
}
