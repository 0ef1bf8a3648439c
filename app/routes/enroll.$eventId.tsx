import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState, type ChangeEvent, type ReactNode } from "react";
import { ErrorList, FormAlert, PlainInput, PlainSelect, useHydrated } from "~/components/forms";
import { formatIsoDate } from "~/lib/dates";
import { formatEuro } from "~/lib/event-rules";
import { formatIban } from "~/lib/iban";
import { transferReference } from "~/lib/transfer";
import { enrol, EnrolmentError, getEnrolmentContext, type EnrolmentResult } from "~/models/enrollment.server";
import { createGuardian, createParticipant } from "~/models/family.server";
import { enrollmentSchema, newChildSchema, newGuardianSchema, sepaSchema } from "~/schemas/enrollment";
import { settings } from "~/services/env.server";
import { readForm } from "~/services/form.server";
import { requireUser } from "~/services/session.server";
import { randomToken } from "~/services/tokens.server";
import { SWIM_BADGES, TSHIRT_SIZES } from "~/lib/enums";

export const meta: MetaFunction = () => [{ title: "Anmeldeformular – Lagerfeuer" }];
// With JavaScript, adding, removing and picking answer without a full page load.
export const handle = { hydrate: true };

const NOT_FOUND = "Die Freizeit wurde nicht gefunden oder konnte nicht geladen werden";

type Payload = Record<string, unknown> & { boxes?: Record<string, unknown>[]; sepa?: Record<string, unknown> };
type Errors = Record<string, string[]>;

function eventIdOf(param: string | undefined) {
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = eventIdOf(params.eventId);
  const context = id ? getEnrolmentContext(id, user) : null;
  if (!context) throw new Response(NOT_FOUND, { status: 404 });
  const firstChild = context.children.find((c) => !context.registered.includes(c.id));
  return json({
    ...context,
    event: { ...context.event, startsAt: undefined },
    bank: settings().bank,
    defaults: {
      submissionKey: randomToken(),
      boxes: [{ participant: firstChild ? String(firstChild.id) : "neu" }],
      paymentMethod: context.mandate ? "sepa" : undefined,
    } as Payload,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = eventIdOf(params.eventId);
  const context = id ? getEnrolmentContext(id, user) : null;
  if (!id || !context) throw new Response(NOT_FOUND, { status: 404 });
  const formData = await readForm(request);
  const intent = String(formData.get("intent") ?? "submit");
  const submission = parseWithZod(formData, { schema: enrollmentSchema });
  const payload = { ...(submission.payload as Payload) };
  payload.boxes = Array.isArray(payload.boxes) ? payload.boxes.slice(0, 10) : [{}];
  if (context.mandate) payload.paymentMethod = "sepa";
  const stamp = Date.now();

  // Buttons that only change the form: the answer is the form again, every entry kept.
  if (intent === "add") {
    if (payload.boxes.length < 10) payload.boxes.push({ participant: "neu" });
    return json({ payload, errors: {} as Errors, stamp, done: null });
  }
  if (intent.startsWith("remove-")) {
    const index = Number(intent.slice("remove-".length));
    if (payload.boxes.length > 1 && Number.isInteger(index)) payload.boxes.splice(index, 1);
    return json({ payload, errors: {} as Errors, stamp, done: null });
  }
  if (intent.startsWith("save-")) {
    // 'Speichern' of a box: the new child (and a new guardian) go into the account now.
    const index = Number(intent.slice("save-".length));
    const box = payload.boxes[index] as Record<string, Record<string, string> | string> | undefined;
    if (!box) return json({ payload, errors: {} as Errors, stamp, done: null });
    const errors: Errors = {};
    if (box.participant === "neu") {
      const checked = newChildSchema.safeParse(box.child ?? {});
      if (!checked.success) {
        for (const [field, messages] of Object.entries(checked.error.flatten().fieldErrors)) errors[`boxes[${index}].child.${field}`] = messages ?? [];
      } else {
        box.participant = String(createParticipant(user.id, checked.data));
        delete box.child;
      }
    }
    if (box.guardian === "neu") {
      const checked = newGuardianSchema.safeParse(box.newGuardian ?? {});
      if (!checked.success) {
        for (const [field, messages] of Object.entries(checked.error.flatten().fieldErrors)) errors[`boxes[${index}].newGuardian.${field}`] = messages ?? [];
      } else {
        box.guardian = String(createGuardian(user.id, checked.data));
        delete box.newGuardian;
      }
    }
    return json({ payload, errors, stamp, done: null }, { status: Object.keys(errors).length ? 400 : 200 });
  }
  if (intent !== "submit") return json({ payload, errors: {} as Errors, stamp, done: null });

  const errors: Errors = submission.status === "success" ? {} : { ...(submission.error as Errors) };
  delete errors.sepa;
  const wantsSepa = payload.paymentMethod === "sepa";
  let sepa = null;
  const sepaGiven = payload.sepa && Object.values(payload.sepa).some((v) => typeof v === "string" && v.trim() !== "");
  if (wantsSepa && (!context.mandate || sepaGiven)) {
    const checked = sepaSchema.safeParse(payload.sepa ?? {});
    if (checked.success) {
      const { consentMandate: _m, consentPrivacy: _p, ...mandate } = checked.data;
      sepa = mandate;
    } else {
      for (const [field, messages] of Object.entries(checked.error.flatten().fieldErrors)) errors[`sepa.${field}`] = messages ?? [];
    }
  }
  if (submission.status !== "success" || Object.keys(errors).length) {
    return json({ payload, errors, stamp, done: null }, { status: 400 });
  }
  try {
    const result = enrol(id, user, { ...submission.value, paymentMethod: submission.value.paymentMethod, sepa });
    return json({ payload, errors: {} as Errors, stamp, done: result });
  } catch (error) {
    if (!(error instanceof EnrolmentError)) throw error;
    for (const problem of error.problems) errors[problem.path] = [...(errors[problem.path] ?? []), problem.message];
    return json({ payload, errors, stamp, done: null }, { status: 400 });
  }
}

// ---------------------------------------------------------------------------------------------

function get(payload: Payload, path: string): string {
  const value = path.split(".").reduce<unknown>((node, key) => {
    const match = /^(\w+)\[(\d+)\]$/.exec(key);
    if (match) return ((node as Record<string, unknown[]>)?.[match[1]] ?? [])[Number(match[2])];
    return (node as Record<string, unknown>)?.[key];
  }, payload);
  return typeof value === "string" ? value : "";
}

const fieldId = (name: string) => name.replace(/[^\w]/g, "-");

function TextField(props: { name: string; label: string; payload: Payload; errors: Errors; type?: string; max?: number; required?: boolean; autoComplete?: string }) {
  const { payload, errors, ...rest } = props;
  return <PlainInput {...rest} id={fieldId(props.name)} defaultValue={get(payload, props.name)} errors={errors[props.name]} />;
}

function Select(props: {
  name: string;
  label: string;
  payload: Payload;
  errors: Errors;
  options: [string, string][];
  required?: boolean;
  empty?: string;
  onChange?: (event: ChangeEvent<HTMLSelectElement>) => void;
}) {
  const { payload, errors, ...rest } = props;
  return <PlainSelect {...rest} id={fieldId(props.name)} defaultValue={get(payload, props.name)} errors={errors[props.name]} />;
}

function YesNo({ name, label, payload, errors }: { name: string; label: string; payload: Payload; errors: Errors }) {
  const id = fieldId(name);
  const value = get(payload, name);
  return (
    <fieldset className="yes-no" aria-describedby={errors[name] ? `${id}-error` : undefined}>
      <legend>{label}*</legend>
      <label className="checkbox">
        <input type="radio" name={name} value="ja" defaultChecked={value === "ja"} /> Ja
      </label>
      <label className="checkbox">
        <input type="radio" name={name} value="nein" defaultChecked={value === "nein"} /> Nein
      </label>
      <ErrorList id={`${id}-error`} errors={errors[name]} />
    </fieldset>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** Without JavaScript a new choice in a select shows its fields after this round trip. */
function TakeOverButton() {
  return (
    <div className="field align-end">
      <button type="submit" name="intent" value="refresh" className="secondary">
        Auswahl übernehmen
      </button>
    </div>
  );
}

function Box({ index, count, data, payload, errors }: { index: number; count: number; data: LoaderData; payload: Payload; errors: Errors }) {
  const at = (field: string) => `boxes[${index}].${field}`;
  const hydrated = useHydrated();
  // With JavaScript a new choice shows its fields at once; without, the button below asks the
  // server for the form again.
  const [participant, setParticipant] = useState(get(payload, at("participant")) || "neu");
  const [guardian, setGuardian] = useState(get(payload, at("guardian")));
  const event = data.event;
  const childOptions: [string, string][] = [
    ...data.children
      .filter((c) => !data.registered.includes(c.id))
      .map((c): [string, string] => [String(c.id), `${c.firstName} ${c.lastName} (${formatIsoDate(c.birthDate)})`]),
    ["neu", "Neues Kind anlegen"],
  ];
  return (
    <fieldset className="panel box">
      <legend>Teilnehmer*in {index + 1}</legend>
      <div className="field-row">
        <Select name={at("participant")} label="Kind" payload={payload} errors={errors} options={childOptions} required onChange={(e) => setParticipant(e.currentTarget.value)} />
        {hydrated ? null : <TakeOverButton />}
      </div>
      {participant === "neu" ? (
        <div className="nested">
          <p className="hint">Neues Kind: Es wird mit der Anmeldung in deinem Konto gespeichert.</p>
          <div className="field-row">
            <TextField name={at("child.firstName")} label="Vorname" payload={payload} errors={errors} max={50} required />
            <TextField name={at("child.lastName")} label="Nachname" payload={payload} errors={errors} max={50} required />
          </div>
          <TextField name={at("child.street")} label="Straße und Hausnummer" payload={payload} errors={errors} max={200} required />
          <div className="field-row">
            <TextField name={at("child.postalCode")} label="PLZ" payload={payload} errors={errors} max={20} />
            <TextField name={at("child.city")} label="Ort" payload={payload} errors={errors} max={150} required />
          </div>
          <TextField name={at("child.birthDate")} label="Geburtsdatum" type="date" payload={payload} errors={errors} required />
          <div className="field-row">
            <TextField name={at("child.municipality")} label="Kreis" payload={payload} errors={errors} max={100} />
            <TextField name={at("child.amtsverwaltung")} label="Amtsverwaltung" payload={payload} errors={errors} max={200} />
          </div>
        </div>
      ) : null}
      <div className="field-row">
        <Select
          name={at("tshirtSize")}
          label="T-Shirt-Größe"
          payload={payload}
          errors={errors}
          options={TSHIRT_SIZES.map((s) => [s, s])}
          required={event.tshirtSizeRequired}
          empty="Bitte wählen"
        />
        <Select
          name={at("swimBadge")}
          label="Schwimmabzeichen"
          payload={payload}
          errors={errors}
          options={SWIM_BADGES.map((s) => [s, s])}
          required={event.swimBadgeRequired}
          empty="Keines"
        />
      </div>
      <div className="field">
        <label htmlFor={`boxes-${index}-specialNeeds`}>Besonderheiten (Allergien, Medikamente …)</label>
        <textarea
          id={`boxes-${index}-specialNeeds`}
          name={at("specialNeeds")}
          defaultValue={get(payload, at("specialNeeds"))}
          maxLength={500}
          rows={3}
          aria-describedby={errors[at("specialNeeds")] ? `boxes-${index}-specialNeeds-error` : undefined}
        />
        <ErrorList id={`boxes-${index}-specialNeeds-error`} errors={errors[at("specialNeeds")]} />
      </div>
      <h2 className="subheading">Versicherung</h2>
      <div className="field-row">
        <TextField name={at("nameOfInsured")} label="Name der versicherten Person" payload={payload} errors={errors} max={100} />
        <TextField name={at("birthdateOfInsured")} label="Geburtsdatum der versicherten Person" type="date" payload={payload} errors={errors} />
      </div>
      {event.permitsRequired ? (
        <>
          <h2 className="subheading">Erlaubnisse</h2>
          <YesNo name={at("allowedToWander")} label="Darf wandern gehen" payload={payload} errors={errors} />
          <YesNo name={at("allowedToSwim")} label="Darf schwimmen gehen" payload={payload} errors={errors} />
          <YesNo name={at("canSwim")} label="Kann schwimmen" payload={payload} errors={errors} />
          <YesNo name={at("allowedToCanoe")} label="Darf Kanu fahren" payload={payload} errors={errors} />
        </>
      ) : null}
      <h2 className="subheading">Erziehungsberechtigte*r</h2>
      <div className="field-row">
        <Select
          name={at("guardian")}
          label="Erziehungsberechtigte*r (für Kinder unter 18)"
          payload={payload}
          errors={errors}
          options={[...data.guardians.map((g): [string, string] => [String(g.id), `${g.firstName} ${g.lastName}`]), ["neu", "Neue Person anlegen"]]}
          empty="Keine (ab 18 Jahren)"
          onChange={(e) => setGuardian(e.currentTarget.value)}
        />
        {hydrated ? null : <TakeOverButton />}
      </div>
      {guardian === "neu" ? (
        <div className="nested">
          <div className="field-row">
            <TextField name={at("newGuardian.firstName")} label="Vorname" payload={payload} errors={errors} max={50} required />
            <TextField name={at("newGuardian.lastName")} label="Nachname" payload={payload} errors={errors} max={50} required />
          </div>
          <TextField name={at("newGuardian.street")} label="Straße und Hausnummer" payload={payload} errors={errors} max={100} />
          <div className="field-row">
            <TextField name={at("newGuardian.postalCode")} label="PLZ" payload={payload} errors={errors} max={20} />
            <TextField name={at("newGuardian.city")} label="Ort" payload={payload} errors={errors} max={150} />
          </div>
          <TextField name={at("newGuardian.email")} label="E-Mail" type="email" payload={payload} errors={errors} max={150} />
          <div className="field-row">
            <TextField name={at("newGuardian.mobilePhone")} label="Mobil" type="tel" payload={payload} errors={errors} max={50} />
            <TextField name={at("newGuardian.phone")} label="Telefon" type="tel" payload={payload} errors={errors} max={50} />
          </div>
        </div>
      ) : null}
      <div className="actions">
        {participant === "neu" || guardian === "neu" ? (
          <button type="submit" name="intent" value={`save-${index}`} className="secondary" formNoValidate>
            Im Konto speichern
          </button>
        ) : null}
        {count > 1 ? (
          <button type="submit" name="intent" value={`remove-${index}`} className="secondary" formNoValidate>
            Teilnehmer*in {index + 1} entfernen
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

function Confirmation({ done, data }: { done: EnrolmentResult; data: LoaderData }) {
  const placed = done.registrations.filter((r) => r.waitingListPosition === null);
  return (
    <section className="panel" aria-labelledby="done-title">
      <h1 id="done-title">Anmeldung eingegangen</h1>
      <p role="status">Vielen Dank! Für „{done.eventTitle}“ haben wir angemeldet:</p>
      <ul>
        {done.registrations.map((r) => (
          <li key={r.id}>
            <strong>
              {r.firstName} {r.lastName}
            </strong>
            : {r.waitingListPosition === null ? "angemeldet" : `Warteliste (Platz ${r.waitingListPosition})`} – {formatEuro(done.priceCents)}
          </li>
        ))}
      </ul>
      {done.paymentMethod === "transfer" && placed.length > 0 ? (
        <>
          <h2>Überweisung</h2>
          <dl className="facts">
            <dt>Kontoinhaber</dt>
            <dd>{data.bank.accountHolder}</dd>
            <dt>IBAN</dt>
            <dd>{formatIban(data.bank.iban)}</dd>
            <dt>BIC</dt>
            <dd>{data.bank.bic}</dd>
            <dt>Bank</dt>
            <dd>{data.bank.name}</dd>
            {placed.map((r) => (
              <FactRow key={r.id} label={`Verwendungszweck für ${r.firstName}`}>
                {transferReference(r.id, data.event.id)}
              </FactRow>
            ))}
          </dl>
        </>
      ) : done.paymentMethod === "sepa" ? (
        <p>Der Betrag wird per SEPA-Lastschrift eingezogen.</p>
      ) : null}
      <p>Wir haben dir eine Bestätigung per E-Mail geschickt. Die Leitung prüft die Anmeldung und meldet sich.</p>
      <p className="actions">
        <Link to={`/freizeit/${data.event.id}`} className="button">
          Zur Veranstaltung
        </Link>
        <Link to="/" className="button secondary">
          Zur Startseite
        </Link>
      </p>
    </section>
  );
}

function FactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

export default function Enroll() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  if (actionData?.done) return <Confirmation done={actionData.done as EnrolmentResult} data={data} />;

  const payload = (actionData?.payload ?? data.defaults) as Payload;
  const errors = (actionData?.errors ?? {}) as Errors;
  const boxes = Array.isArray(payload.boxes) && payload.boxes.length ? payload.boxes : [{}];
  const event = data.event;
  const locked = data.mandate !== null;
  const hasErrors = Object.keys(errors).length > 0;

  if (event.started) {
    return (
      <section className="panel">
        <h1>Anmeldeformular: {event.title}</h1>
        <p>Diese Veranstaltung hat schon begonnen. Eine Anmeldung ist nicht mehr möglich.</p>
        <Link to={`/freizeit/${event.id}`} className="button">
          Zur Veranstaltung
        </Link>
      </section>
    );
  }

  return (
    <>
      <h1>Anmeldeformular: {event.title}</h1>
      <p>
        Ab {formatIsoDate(event.dateFrom)} · {formatEuro(event.priceCents)} pro Teilnehmer*in
      </p>
      {data.placesLeft !== null && data.placesLeft < boxes.length ? (
        <p className="flash flash-info" role="note">
          {data.placesLeft === 0
            ? "Alle Plätze sind vergeben. Deine Anmeldung kommt auf die Warteliste, in der Reihenfolge des Eingangs."
            : `Es sind nur noch ${data.placesLeft} Plätze frei. Wer darüber hinaus angemeldet wird, kommt auf die Warteliste.`}
        </p>
      ) : null}
      <Form method="post" key={actionData?.stamp ?? "enroll"} noValidate className="enroll-form">
        <FormAlert alert={hasErrors ? { title: "Mindestens ein Feld ist nicht valide", message: "Bitte prüfe die markierten Angaben." } : null} />
        <ErrorList errors={errors[""]} />
        <input type="hidden" name="submissionKey" value={get(payload, "submissionKey") || data.defaults.submissionKey as string} />
        {boxes.map((_, index) => (
          <Box key={index} index={index} count={boxes.length} data={data} payload={payload} errors={errors} />
        ))}
        <ErrorList errors={errors.boxes} />
        {boxes.length < 10 ? (
          <p>
            <button type="submit" name="intent" value="add" className="secondary" formNoValidate>
              Weitere*n Teilnehmer*in hinzufügen
            </button>
          </p>
        ) : null}

        <div className="field">
          <label htmlFor="referral">Wie hast du von uns erfahren?</label>
          <textarea
            id="referral"
            name="referral"
            defaultValue={get(payload, "referral")}
            maxLength={300}
            rows={2}
            aria-describedby={errors.referral ? "referral-error" : undefined}
          />
          <ErrorList id="referral-error" errors={errors.referral} />
        </div>

        <fieldset className="choices" aria-describedby={errors.paymentMethod ? "payment-error" : undefined}>
          <legend>Zahlungsart*</legend>
          {locked ? <input type="hidden" name="paymentMethod" value="sepa" /> : null}
          <label className="checkbox">
            <input type="radio" name="paymentMethod" value="transfer" defaultChecked={get(payload, "paymentMethod") === "transfer"} disabled={locked} /> Überweisung
          </label>
          <label className="checkbox">
            <input type="radio" name="paymentMethod" value="sepa" defaultChecked={get(payload, "paymentMethod") === "sepa"} disabled={locked} /> SEPA-Lastschriftmandat
          </label>
          {locked ? <p className="hint">Für diese Veranstaltung gibt es schon dein SEPA-Lastschriftmandat; es gilt auch für diese Anmeldung.</p> : null}
          <ErrorList id="payment-error" errors={errors.paymentMethod} />
        </fieldset>

        <fieldset className="panel sepa">
          <legend>SEPA-Lastschriftmandat</legend>
          {locked && data.mandate ? (
            <p>
              Bisheriges Mandat: {data.mandate.firstName} {data.mandate.lastName}, {formatIban(data.mandate.iban)}. Nur ausfüllen, wenn du es korrigieren
              möchtest.
            </p>
          ) : (
            <p className="hint">Nur bei Zahlung per SEPA-Lastschrift ausfüllen.</p>
          )}
          <div className="field-row">
            <TextField name="sepa.firstName" label="Vorname Kontoinhaber*in" payload={payload} errors={errors} max={50} autoComplete="given-name" />
            <TextField name="sepa.lastName" label="Nachname Kontoinhaber*in" payload={payload} errors={errors} max={50} autoComplete="family-name" />
          </div>
          <TextField name="sepa.street" label="Straße und Hausnummer" payload={payload} errors={errors} max={100} autoComplete="street-address" />
          <div className="field-row">
            <TextField name="sepa.postalCode" label="Postleitzahl" payload={payload} errors={errors} max={5} autoComplete="postal-code" />
            <TextField name="sepa.city" label="Ort" payload={payload} errors={errors} max={100} autoComplete="address-level2" />
          </div>
          <TextField name="sepa.iban" label="IBAN" payload={payload} errors={errors} max={50} />
          <p className="mandate-text">
            Ich ermächtige {data.bank.accountHolder}, den Teilnahmebeitrag einmalig von meinem Konto mittels Lastschrift einzuziehen. Zugleich weise ich
            mein Kreditinstitut an, die von {data.bank.accountHolder} auf mein Konto gezogene Lastschrift einzulösen. Hinweis: Ich kann innerhalb von acht
            Wochen, beginnend mit dem Belastungsdatum, die Erstattung des belasteten Betrages verlangen. Es gelten dabei die mit meinem Kreditinstitut
            vereinbarten Bedingungen.
          </p>
          <label className="checkbox">
            <input
              type="checkbox"
              name="sepa.consentMandate"
              defaultChecked={get(payload, "sepa.consentMandate") === "on"}
              aria-describedby={errors["sepa.consentMandate"] ? "consent-mandate-error" : undefined}
            />{" "}
            Ich erteile das SEPA-Lastschriftmandat.
          </label>
          <ErrorList id="consent-mandate-error" errors={errors["sepa.consentMandate"]} />
          <label className="checkbox">
            <input
              type="checkbox"
              name="sepa.consentPrivacy"
              defaultChecked={get(payload, "sepa.consentPrivacy") === "on"}
              aria-describedby={errors["sepa.consentPrivacy"] ? "consent-privacy-error" : undefined}
            />{" "}
            Ich habe die Datenschutzerklärung gelesen und bin mit der Verarbeitung meiner Kontodaten einverstanden.
          </label>
          <ErrorList id="consent-privacy-error" errors={errors["sepa.consentPrivacy"]} />
          <ErrorList errors={errors.sepa} />
        </fieldset>

        <label className="checkbox">
          <input type="checkbox" name="terms" defaultChecked={get(payload, "terms") === "on"} aria-describedby={errors.terms ? "terms-error" : undefined} /> Ich
          habe die Teilnahmebedingungen und die Datenschutzerklärung gelesen und akzeptiere sie.*
        </label>
        <ErrorList id="terms-error" errors={errors.terms} />

        <div className="actions">
          <button type="submit" name="intent" value="submit" disabled={navigation.state === "submitting"}>
            Verbindlich Anmelden
          </button>
          <Link to="/" className="button secondary">
            Abbrechen
          </Link>
        </div>
      </Form>
    </>
  );
}
