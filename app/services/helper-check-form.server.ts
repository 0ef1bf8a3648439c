// The helper-check form of an admin on /account/{id} (issue 11, item 6). The caller has made sure
// the person is an admin (requireAdmin) and the account exists.
import { json } from "~/services/json.server";
import { berlinToday } from "~/lib/dates";
import { parseHelperChecks, saveHelperChecks, type CheckErrors, type HelperChecks } from "~/models/helper-check.server";
import { redirectWithFlash } from "./flash.server";
import { readForm } from "./form.server";

/** The query parameter the helper-check form posts with, so the account action can tell it apart. */
export const HELPER_CHECKS_PARAM = "nachweise";

export type HelperChecksActionData = { helperChecks: { errors: CheckErrors; values: HelperChecks } };

export async function handleHelperChecksForm(request: Request, userId: number, backTo: string) {
  const form = await readForm(request, { maxFields: 20 });
  const parsed = parseHelperChecks(form, berlinToday());
  if (!parsed.ok) {
    const values = Object.fromEntries(
      ["policeCertificateCheckedOn", "policeCertificateCheckedBy", "juleicaNumber", "juleicaExpiresOn", "phone"].map((k) => [k, String(form.get(k) ?? "").slice(0, 200)]),
    ) as HelperChecks;
    return json({ helperChecks: { errors: parsed.errors, values } } satisfies HelperChecksActionData, { status: 400 });
  }
  saveHelperChecks(userId, parsed.value);
  return redirectWithFlash(backTo, { kind: "success", title: "Erfolgreiche Änderung", message: "Die Nachweise für die Mitarbeit wurden gespeichert." }, { request });
}
