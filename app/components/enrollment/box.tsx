// One participant box of the enrolment form: the child (chosen or new), this enrolment's answers
// and the guardian (chosen, typed in another box, or new).
import { useState } from "react";
import { useHydrated } from "~/components/forms";
import { formatIsoDate } from "~/lib/dates";
import { childAnswers, defaultGuardian, valueAt } from "~/lib/enrollment-payload";
import { NO_GUARDIAN } from "~/lib/enrollment-rules";
import { SWIM_BADGES, TSHIRT_SIZES } from "~/lib/enums";
import { Select, TakeOverButton, TextArea, TextField, YesNo, type Errors, type Values } from "./fields";

type Child = Parameters<typeof childAnswers>[0] & { id: number; firstName: string; lastName: string; birthDate: string };
export type BoxData = {
  event: { tshirtSizeRequired: boolean; swimBadgeRequired: boolean; permitsRequired: boolean; late: boolean };
  /** Places still free (null: no limit); the boxes take them in their order. */
  placesLeft: number | null;
  children: NonNullable<Child>[];
  guardians: { id: number; firstName: string; lastName: string }[];
  registered: number[];
};

/** A box's fields in the order it draws them (the error summary lists their messages so). */
export const BOX_FIELDS = [
  "participant",
  ...["firstName", "lastName", "street", "postalCode", "city", "birthDate", "municipality", "amtsverwaltung"].map((f) => `child.${f}`),
  ...["tshirtSize", "swimBadge", "specialNeeds", "nameOfInsured", "birthdateOfInsured", "allowedToWander", "allowedToSwim", "canSwim", "allowedToCanoe"],
  "guardian",
  ...["firstName", "lastName", "street", "postalCode", "city", "email", "mobilePhone", "phone"].map((f) => `newGuardian.${f}`),
];

/** `saved`: what 'Im Konto speichern' of this box has just saved. */
type Props = { index: number; count: number; data: BoxData; values: Values; errors: Errors; typed: Record<number, string>; action: string; saved?: string };

export function Box({ index, count, data, values, errors, typed, action, saved }: Props) {
  const at = (field: string) => `boxes[${index}].${field}`;
  const anchor = `teilnehmer-${index + 1}`;
  const hydrated = useHydrated();
  // With JavaScript a new choice shows its fields at once; without, 'Auswahl übernehmen' asks
  // the server for the form again.
  const [participant, setParticipant] = useState(valueAt(values, at("participant")) || "neu");
  const [guardian, setGuardian] = useState(valueAt(values, at("guardian")));
  const answersFor = valueAt(values, at("answersFor"));
  // A child chosen here (with JavaScript) starts with its latest answers from the account.
  const answers: Values =
    answersFor === participant ? values : { boxes: Object.assign([], { [index]: childAnswers(data.children.find((c) => String(c.id) === participant)) }) };
  const p = { values, errors };
  const a = { values: answers, errors };
  const childOptions: [string, string][] = [
    ...data.children.filter((c) => !data.registered.includes(c.id)).map((c): [string, string] => [String(c.id), `${c.firstName} ${c.lastName} (${formatIsoDate(c.birthDate)})`]),
    ["neu", "Neues Kind anlegen"],
  ];
  const guardianOptions: [string, string][] = [
    ...data.guardians.map((g): [string, string] => [String(g.id), `${g.firstName} ${g.lastName}`]),
    ...Object.entries(typed)
      .filter(([k]) => Number(k) !== index)
      .map(([k, name]): [string, string] => [`box-${k}`, `${name} (wie bei Teilnehmer*in ${Number(k) + 1})`]),
    ["neu", "Neue Person anlegen"],
    [NO_GUARDIAN, "Keine (ab 18 Jahren)"],
  ];
  // With JavaScript a newly chosen child brings its last guardian (as the server does without).
  const chooseChild = (value: string) => {
    setParticipant(value);
    const child = data.children.find((c) => String(c.id) === value);
    if (child?.lastGuardianId || !guardian) setGuardian(defaultGuardian(child, data.guardians.map((g) => g.id)) || guardian);
  };
  return (
    <fieldset className="panel box" id={anchor} tabIndex={-1}>
      <legend>Teilnehmer*in {index + 1}</legend>
      {data.placesLeft !== null && index >= data.placesLeft ? (
        <p className="flash flash-info" role="note">
          {noPlaceNote(index, data.placesLeft, data.event.late)}
        </p>
      ) : null}
      {saved ? (
        <p className="flash flash-success" role="status">
          {saved}
        </p>
      ) : null}
      <input type="hidden" name={at("saveKey")} value={valueAt(values, at("saveKey"))} />
      <input type="hidden" name={at("answersFor")} value={participant} />
      <div className="field-row">
        {/* A new key when the options change: an uncontrolled select takes its value only at mount,
            and after a save the answer can arrive before the account's new child is an option. */}
        <Select
          key={childOptions.map(([v]) => v).join()}
          name={at("participant")}
          label="Kind"
          {...p}
          value={participant}
          options={childOptions}
          required
          onChange={(e) => chooseChild(e.currentTarget.value)}
        />
        {hydrated ? null : <TakeOverButton anchor={anchor} action={action} />}
      </div>
      {participant === "neu" ? (
        <div className="nested">
          <p className="hint">Neues Kind: Es wird mit der Anmeldung in deinem Konto gespeichert.</p>
          <div className="field-row">
            <TextField name={at("child.firstName")} label="Vorname" {...p} max={50} required />
            <TextField name={at("child.lastName")} label="Nachname" {...p} max={50} required />
          </div>
          <TextField name={at("child.street")} label="Straße und Hausnummer" {...p} max={200} required />
          <div className="field-row">
            <TextField name={at("child.postalCode")} label="PLZ" {...p} max={20} />
            <TextField name={at("child.city")} label="Ort" {...p} max={150} required />
          </div>
          <TextField name={at("child.birthDate")} label="Geburtsdatum" type="date" {...p} required />
          <div className="field-row">
            <TextField name={at("child.municipality")} label="Kreis" {...p} max={100} />
            <TextField name={at("child.amtsverwaltung")} label="Amtsverwaltung" {...p} max={200} />
          </div>
        </div>
      ) : null}
      <div key={participant}>
        <div className="field-row">
          <Select name={at("tshirtSize")} label="T-Shirt-Größe" {...a} options={TSHIRT_SIZES.map((s) => [s, s])} required={data.event.tshirtSizeRequired} empty="Bitte wählen" />
          <Select name={at("swimBadge")} label="Schwimmabzeichen" {...a} options={SWIM_BADGES.map((s) => [s, s])} required={data.event.swimBadgeRequired} empty={data.event.swimBadgeRequired ? "Bitte wählen" : "Keines"} />
        </div>
        <TextArea name={at("specialNeeds")} label="Besonderheiten (Allergien, Medikamente …)" {...a} max={500} />
        <h2 className="subheading">Versicherung</h2>
        <div className="field-row">
          <TextField name={at("nameOfInsured")} label="Name der versicherten Person" {...a} max={100} />
          <TextField name={at("birthdateOfInsured")} label="Geburtsdatum der versicherten Person" type="date" {...a} />
        </div>
        {data.event.permitsRequired ? (
          <>
            <h2 className="subheading">Erlaubnisse</h2>
            <YesNo name={at("allowedToWander")} label="Darf wandern gehen" {...a} />
            <YesNo name={at("allowedToSwim")} label="Darf schwimmen gehen" {...a} />
            <YesNo name={at("canSwim")} label="Kann schwimmen" {...a} />
            <YesNo name={at("allowedToCanoe")} label="Darf Kanu fahren" {...a} />
          </>
        ) : null}
      </div>
      <h2 className="subheading">Erziehungs&shy;berechtigte*r</h2>
      <div className="field-row">
        <Select
          key={`${participant}:${guardianOptions.map(([v]) => v).join()}`}
          name={at("guardian")}
          label="Erziehungsberechtigte*r (für Kinder unter 18)"
          {...p}
          value={guardian}
          options={guardianOptions}
          empty="Bitte wählen"
          onChange={(e) => setGuardian(e.currentTarget.value)}
        />
        {hydrated ? null : <TakeOverButton anchor={anchor} action={action} />}
      </div>
      {guardian === "neu" ? (
        <div className="nested">
          <div className="field-row">
            <TextField name={at("newGuardian.firstName")} label="Vorname" {...p} max={50} required />
            <TextField name={at("newGuardian.lastName")} label="Nachname" {...p} max={50} required />
          </div>
          <TextField name={at("newGuardian.street")} label="Straße und Hausnummer" {...p} max={100} />
          <div className="field-row">
            <TextField name={at("newGuardian.postalCode")} label="PLZ" {...p} max={20} />
            <TextField name={at("newGuardian.city")} label="Ort" {...p} max={150} />
          </div>
          <TextField name={at("newGuardian.email")} label="E-Mail" type="email" {...p} max={150} />
          <div className="field-row">
            <TextField name={at("newGuardian.mobilePhone")} label="Mobil" type="tel" {...p} max={50} />
            <TextField name={at("newGuardian.phone")} label="Telefon" type="tel" {...p} max={50} />
          </div>
        </div>
      ) : null}
      <div className="actions">
        {participant === "neu" || guardian === "neu" ? (
          <button type="submit" name="intent" value={`save-${index}`} formAction={`${action}#${anchor}`} className="secondary" formNoValidate>
            Im Konto speichern
          </button>
        ) : null}
        {count > 1 ? (
          <button type="submit" name="intent" value={`remove-${index}`} formAction={`${action}#teilnehmer-${Math.max(1, index)}`} className="secondary" formNoValidate>
            Teilnehmer*in {index + 1} entfernen
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}

/** Places go to the boxes in their order; a box beyond them says so where the parent is. */
function noPlaceNote(index: number, left: number, late: boolean) {
  const which = left === 1 ? "für Teilnehmer*in 1" : left === 2 ? "für Teilnehmer*in 1 und 2" : `für Teilnehmer*in 1 bis ${left}`;
  const why = left === 0 ? "Alle Plätze sind vergeben." : `Es ${left === 1 ? "ist nur noch 1 Platz" : `sind nur noch ${left} Plätze`} frei, ${which}.`;
  return late
    ? `Für Teilnehmer*in ${index + 1} ist kein Platz frei, und nach dem Anmeldeschluss gibt es keine Warteliste. ${why}`
    : `Teilnehmer*in ${index + 1} kommt auf die Warteliste: ${why}`;
}
