// 'Ausgewählte annehmen' (DECISIONS.md: several open registrations can be accepted at once). The
// ticked rows lead (GET) to a step that names the children and takes the note to the parents, as
// accepting one does: its mails cannot be taken back, so a stray tap on a phone sends nothing.
import { Form } from "@remix-run/react";
import { idFrom } from "~/lib/ids";
import { PAGE_SIZE } from "~/lib/review-filter";
import { ConfirmActions, ConfirmDialog, rememberOpener, STEP_ANCHOR } from "./confirm-dialog";
import { useHydrated } from "./forms";
import { StepReason } from "./review-decisions";

/** The form the rows' checkboxes belong to. */
export const BULK_FORM_ID = "sammel-annahme";

/** The step's value of `entscheiden`, and the name of the rows' checkboxes (the ticked ids). */
export const BULK_STEP = "accept-many";
export const PICKED = "auswahl";

/** `?entscheiden=accept-many&auswahl=3&auswahl=5` → the ticked ids (a page's worth at most), else null. */
export function parseBulkStep(params: URLSearchParams): number[] | null {
  if (params.get("entscheiden") !== BULK_STEP) return null;
  const ids = params.getAll(PICKED).map(idFrom).filter((id): id is number => id !== null);
  return [...new Set(ids)].slice(0, PAGE_SIZE);
}

/** The step's address: the list as it is shown, with the ticked ids. */
export function bulkStepSearch(pageSearch: string, ids: number[]) {
  const params = new URLSearchParams(pageSearch);
  params.set("entscheiden", BULK_STEP);
  for (const id of ids) params.append(PICKED, String(id));
  return `?${params.toString()}`;
}

/** The form the rows' checkboxes belong to: the list's own parameters ride along. */
export function BulkAcceptForm({ listPath, pageSearch }: { listPath: string; pageSearch: string }) {
  const hydrated = useHydrated();
  const kept = [...new URLSearchParams(pageSearch)].filter(([name]) => !["entscheiden", "anmeldung", PICKED].includes(name));
  return (
    <Form method="get" action={hydrated ? listPath : `${listPath}#${STEP_ANCHOR}`} id={BULK_FORM_ID} className="bulk-accept" preventScrollReset>
      {kept.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="entscheiden" value={BULK_STEP} />
      <button type="submit" onClick={(event) => rememberOpener(event.currentTarget)}>
        Ausgewählte annehmen
      </button>
      <span className="hint"> Offene Anmeldungen dafür ankreuzen.</span>
    </Form>
  );
}

type StepProps = {
  /** The ticked registrations that are open, by name; `ticked`: how many were ticked. */
  step: { rows: { id: number; name: string }[]; ticked: number };
  actionUrl: string;
  cancelUrl: string;
  error?: { reason?: string[]; message?: string } | null;
};

const NOTE_ID = "notiz-sammel-annahme";

export function BulkAcceptStep({ step, actionUrl, cancelUrl, error }: StepProps) {
  const { rows, ticked } = step;
  const gone = ticked - rows.length;
  return (
    <ConfirmDialog title="Anmeldungen annehmen" cancelUrl={cancelUrl} stepKey={`${BULK_STEP}-${rows.map((r) => r.id).join("-")}`}>
      <p>{rows.length === 1 ? "Diese Anmeldung wird bestätigt:" : `Diese ${rows.length} Anmeldungen werden bestätigt:`}</p>
      <ul className="bulk-names">
        {rows.map((row) => (
          <li key={row.id}>{row.name}</li>
        ))}
      </ul>
      {gone > 0 ? <p>{gone === 1 ? "Eine ausgewählte Anmeldung ist nicht mehr offen und bleibt, wie sie ist." : `${gone} ausgewählte Anmeldungen sind nicht mehr offen und bleiben, wie sie sind.`}</p> : null}
      <p>Die Eltern bekommen zu jeder Anmeldung eine E-Mail.</p>
      <Form method="post" action={`${actionUrl.replace(/#.*$/, "")}#${NOTE_ID}`} preventScrollReset noValidate>
        <input type="hidden" name="intent" value={BULK_STEP} />
        {rows.map((row) => (
          <input key={row.id} type="hidden" name="registrationIds" value={row.id} />
        ))}
        <StepReason id={NOTE_ID} label="Notiz an die Eltern (optional)" hint="Die Notiz steht in jeder dieser E-Mails." required={false} error={error} />
        <ConfirmActions label={rows.length === 1 ? "Annehmen" : `${rows.length} annehmen`} cancelUrl={cancelUrl} danger={false} />
      </Form>
    </ConfirmDialog>
  );
}
