// The actions of the account page, shared by /account (one's own) and /account/{id} (an admin
// editing someone else). The routes guard; this parses, calls the model and answers.
import { mismatchAtField, parseWithZod } from "~/services/parse-form.server";
import { json } from "~/services/json.server";
import {
  changeEmailByAdmin,
  changePassword,
  checkCurrentPassword,
  requestEmailChange,
  updateNames,
  type SessionUser,
} from "~/models/user.server";
import { deleteAccount } from "~/models/account-deletion.server";
import { setOwnPhone } from "~/models/user-phone.server";
import { saveGuardian, saveParticipant, storedSpecialNeeds, type GuardianInput, type ParticipantInput } from "~/models/family.server";
import { submissionKeyOf } from "~/models/form-submission.server";
import {
  deleteSchema,
  emailSchema,
  guardianSchema,
  namesSchema,
  participantKeepingNotesSchema,
  participantSchema,
  PASSWORD_RULES,
  passwordSchema,
  phoneSchema,
  REQUIRED_FIELDS,
  type AccountIntent,
} from "~/schemas/account";
import { SIGNUP_TAKEN } from "~/schemas/auth";
import { redirectWithFlash } from "./flash.server";
import { currentSessionHash, endSession, requireUser } from "./session.server";
import { deviceKeyFor, readDeviceMarks } from "./device.server";
import { readForm } from "./form.server";
import { idFrom } from "~/lib/ids";
import { brokenRules, type ServerCheck } from "~/lib/password-rules";

const CHANGED = "Erfolgreiche Änderung";
const CHANGE_FAILED = "Fehler beim Ändern";
const PASSWORD_THROTTLED = "Zu viele Fehlversuche. Bitte warte 15 Minuten und versuche es dann erneut.";
const WRONG_PASSWORD = "Das aktuelle Passwort ist nicht korrekt.";
const EMAIL_REFUSED = {
  taken: [SIGNUP_TAKEN.message, 409],
  same: ["Das ist bereits die aktuelle E-Mail-Adresse.", 400],
  throttled: ["Zu viele Versuche. Bitte warte 15 Minuten und versuche es dann erneut.", 429],
} as const;

/** Who checks the current password: the client, and the browser's device mark for the account. */
async function passwordClient(request: Request, userId: number, clientKey: string) {
  return { clientKey, deviceKey: deviceKeyFor(await readDeviceMarks(request), userId) };
}

function failure(intent: AccountIntent, result: unknown, title: string, message?: string, status = 400, check: ServerCheck | null = null) {
  return json({ intent, result, alert: { title, message }, attempt: Date.now(), check }, { status });
}

/**
 * Handles one form of the account page for `target`. `self` is true on /account; an admin on
 * /account/{id} may change names and the address, not the password, and not delete.
 */
export async function handleAccountForm(
  request: Request,
  target: SessionUser,
  self: boolean,
  backTo: string,
  clientKey: string,
  /** The route's guard, asked again once the body is in: a right taken meanwhile counts. */
  again: () => Promise<unknown>,
) {
  const formData = await readForm(request);
  await again();
  const intent = String(formData.get("intent") ?? "");

  if (intent === "names") {
    const submission = parseWithZod(formData, { schema: namesSchema });
    if (submission.status !== "success") return failure("names", submission.reply(), CHANGE_FAILED, "Bitte überprüfe deine Eingabe.");
    updateNames(target.id, { firstName: submission.value.firstName, lastName: submission.value.lastName });
    return redirectWithFlash(backTo, { kind: "success", title: CHANGED, message: "Der Name wurde geändert." });
  }

  if (intent === "email") {
    const submission = parseWithZod(formData, { schema: emailSchema });
    if (submission.status !== "success") return failure("email", submission.reply(), CHANGE_FAILED, "E-Mail-Format nicht korrekt");
    const outcome = self
      ? requestEmailChange(target.id, submission.value.email, clientKey)
      : changeEmailByAdmin(target.id, submission.value.email, (await requireUser(request)).email);
    if (!outcome.ok) {
      const [message, status] = EMAIL_REFUSED[outcome.reason];
      return failure("email", submission.reply({ fieldErrors: { email: [message] } }), CHANGE_FAILED, message, status);
    }
    return redirectWithFlash(backTo, {
      kind: "success",
      title: CHANGED,
      message: self
        ? "Bitte bestätige die Änderung über den Link, den wir an deine bisherige E-Mail-Adresse geschickt haben. Bis dahin gilt die bisherige Adresse."
        : "Die E-Mail-Adresse wurde geändert.",
    });
  }

  if (intent === "phone" && self) {
    const submission = parseWithZod(formData, { schema: phoneSchema });
    if (submission.status !== "success") return failure("phone", submission.reply(), CHANGE_FAILED, "Bitte überprüfe deine Eingabe.");
    setOwnPhone(target.id, submission.value.phone);
    return redirectWithFlash(backTo, { kind: "success", title: CHANGED, message: "Die Telefonnummer wurde gespeichert." });
  }

  if (intent === "password" && self) {
    const submission = parseWithZod(formData, { schema: passwordSchema });
    const hidden = { hideFields: ["currentPassword", "newPassword", "newPasswordRepeat"] };
    if (submission.status !== "success") {
      const mismatch = mismatchAtField(formData, ["newPassword", "newPasswordRepeat"], PASSWORD_RULES, submission.error);
      const fieldErrors: Record<string, string[]> = { ...(mismatch ?? (submission.error as Record<string, string[]> | null | undefined) ?? {}) };
      // Every message in one answer: a wrong current password is said now too, not after the
      // new one is fixed (screens' review). It counts as a try, as it would then.
      const current = formData.get("currentPassword");
      if (typeof current === "string" && current && !fieldErrors.currentPassword) {
        const checked = await checkCurrentPassword(target.id, current, await passwordClient(request, target.id, clientKey));
        if (checked !== "valid") fieldErrors.currentPassword = [checked === "throttled" ? PASSWORD_THROTTLED : WRONG_PASSWORD];
      }
      const check = brokenRules(String(formData.get("newPassword") ?? ""), String(formData.get("newPasswordRepeat") ?? ""));
      return failure("password", submission.reply({ ...hidden, fieldErrors }), CHANGE_FAILED, PASSWORD_RULES, 400, check);
    }
    const changed = await changePassword(
      target.id,
      submission.value.currentPassword,
      submission.value.newPassword,
      await currentSessionHash(request),
      await passwordClient(request, target.id, clientKey),
    );
    if (changed !== "changed") {
      const [message, status] = changed === "throttled" ? [PASSWORD_THROTTLED, 429] : [WRONG_PASSWORD, 400];
      return failure("password", submission.reply({ ...hidden, fieldErrors: { currentPassword: [message] } }), CHANGE_FAILED, message, status);
    }
    return redirectWithFlash(backTo, {
      kind: "success",
      title: CHANGED,
      message: "Dein Passwort wurde geändert. Auf anderen Geräten bist du jetzt abgemeldet.",
    });
  }

  if (intent === "delete" && self) {
    const submission = parseWithZod(formData, { schema: deleteSchema });
    if (submission.status !== "success") return failure("delete", submission.reply(), "Fehler beim Löschen", "Bitte bestätige das Löschen.");
    const outcome = deleteAccount(target.id);
    if (!outcome.ok) {
      return failure("delete", submission.reply(), "Fehler beim Löschen", "Das letzte Admin-Konto kann nicht gelöscht werden.", 409);
    }
    // Shown on the login page, so in its form of address ('Sie', DECISIONS.md).
    return redirectWithFlash(
      "/login",
      { kind: "success", title: "Konto gelöscht", message: "Ihr Konto und alle zugehörigen Daten wurden gelöscht." },
      { setCookie: [await endSession(request)] },
    );
  }

  if (intent === "participant" || intent === "guardian") {
    const formId = String(formData.get("formId") ?? "").slice(0, 40);
    const isNew = !formData.get("id");
    const childId = intent === "participant" && !isNew ? idFrom(formData.get("id")) : null;
    const stored = childId ? storedSpecialNeeds(target.id, childId) : null;
    const asStored = (text: unknown) => String(text ?? "").replace(/\r\n/g, "\n").trim();
    const keepsNotes = stored !== null && asStored(formData.get("specialNeeds")) === asStored(stored);
    const schema = intent === "guardian" ? guardianSchema : keepsNotes ? participantKeepingNotesSchema : participantSchema;
    const submission = parseWithZod(formData, { schema });
    const title = isNew ? "Fehler beim Erstellen" : "Fehler beim Updaten";
    const values = Object.fromEntries([...formData].filter(([, v]) => typeof v === "string").map(([k, v]) => [k, String(v).slice(0, 500)]));
    if (submission.status !== "success") {
      // The spec's 'fill in all required fields' only when one is missing; otherwise say to look.
      const errors = submission.error ?? {};
      const missing = Object.values(errors).some((list) => list?.includes(REQUIRED_FIELDS));
      const message = missing ? REQUIRED_FIELDS : "Bitte prüfe die markierten Felder.";
      return json({ intent, formId, alert: { title, message }, errors, values, result: null }, { status: 400 });
    }
    const { intent: _intent, id, ...input } = submission.value;
    const saved =
      submission.value.intent === "participant"
        ? saveParticipant(target.id, id ?? null, input as ParticipantInput, submissionKeyOf(formData))
        : saveGuardian(target.id, id ?? null, input as GuardianInput, submissionKeyOf(formData));
    if (!saved) return json({ intent, formId, alert: { title, message: "Diesen Eintrag gibt es in diesem Konto nicht." }, errors: {}, values, result: null }, { status: 404 });
    return redirectWithFlash(`${backTo}?tab=teilnehmer`, {
      kind: "success",
      title: "Gespeichert",
      message: intent === "participant" ? "Die Angaben zum Kind wurden gespeichert." : "Die Angaben zur erziehungsberechtigten Person wurden gespeichert.",
    });
  }

  return json({ intent: null, result: null, alert: { title: CHANGE_FAILED, message: "Unbekannte Aktion." } }, { status: 400 });
}
