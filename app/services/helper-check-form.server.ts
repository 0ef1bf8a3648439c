// The helper-check form (issue 11, item 6): an admin's on /account/{id}, and a lead person's on the
// helper details of their event. The caller has made sure the person may (requireAdmin, or the
// event's 'recordHelperChecks') and that the account exists (there: as an accepted helper).
import { json } from "~/services/json.server";
import { berlinToday } from "~/lib/dates";
import { parseHelperChecks, saveHelperChecks, type CheckErrors, type HelperChecks } from "~/models/helper-check.server";
import { redirectWithFlash } from "./flash.server";
import { readForm } from "./form.server";

/** The query parameter the helper-check form posts with, so the account action can tell it apart. */
export const HELPER_CHECKS_PARAM = "nachweise";

/** A refused form: its messages, what was typed, and a stamp that opens the page at the messages. */
export type HelperChecksActionData = { helperChecks: { errors: CheckErrors; values: HelperChecks; attempt: number } };

export async function handleHelperChecksForm(request: Request, userId: number, backTo: string, again: () => Promise<unknown>) {
  const form = await readForm(request, { maxFields: 20 });
  // The route's guard again once the body is in: a right taken meanwhile counts.
  await again();
  const parsed = parseHelperChecks(form, berlinToday());
  if (!parsed.ok) {
    const values = Object.fromEntries(
      ["policeCertificateCheckedOn", "policeCertificateCheckedBy", "juleicaNumber", "juleicaExpiresOn", "phone"].map((k) => [k, String(form.get(k) ?? "").slice(0, 200)]),
    ) as HelperChecks;
    return json({ helperChecks: { errors: parsed.errors, values, attempt: Date.now() } } satisfies HelperChecksActionData, { status: 400 });
  }
  saveHelperChecks(userId, parsed.value);
  return redirectWithFlash(backTo, { kind: "success", title: "Erfolgreiche Änderung", message: "Die Nachweise für die Mitarbeit wurden gespeichert." }, { request });
}
