// The event e-mail form (spec §2.9, §5): subject up to 100, text up to 1500, both required; the
// recipients' choice; attachments in a fixed set of rows (docs/decisions/0013-event-mail-and-lists.md).
import { z } from "zod";
import { EVENT_MAIL_AUDIENCES } from "~/lib/enums";

export const SUBJECT_MAX = 100;
export const TEXT_MAX = 1500;
/** Rows of attachments the form offers (a fixed set of file inputs, so it works without JavaScript). */
export const ATTACHMENT_ROWS = 5;
export const INVALID = "Mindestens ein Feld ist nicht valide";

export const AUDIENCE_LABELS = {
  both: "Teilnehmende und Mitarbeitende",
  participants: "Teilnehmende",
  helpers: "Mitarbeitende",
  waiting: "Warteliste",
  unpaid: "Teilnehmende, nur unbezahlte",
} as const;

export const eventMailSchema = z.object({
  // A subject is one line: line breaks (never typed into the field) become spaces.
  subject: z.preprocess(
    (v) => (typeof v === "string" ? v.replace(/[\r\n\t]+/g, " ") : v),
    z
      .string({ required_error: "Bitte geben Sie einen Betreff an." })
      .trim()
      .min(1, "Bitte geben Sie einen Betreff an.")
      .max(SUBJECT_MAX, `Der Betreff darf höchstens ${SUBJECT_MAX} Zeichen lang sein.`),
  ),
  text: z
    .string({ required_error: "Bitte geben Sie einen Text an." })
    .trim()
    .min(1, "Bitte geben Sie einen Text an.")
    .max(TEXT_MAX, `Der Text darf höchstens ${TEXT_MAX} Zeichen lang sein.`),
  audience: z.enum(EVENT_MAIL_AUDIENCES, { errorMap: () => ({ message: "Bitte wählen Sie die Empfänger*innen." }) }),
});

export type EventMailFields = "subject" | "text" | "audience";

/** Field name → message of the first problem, from a FormData's text fields. */
export function parseEventMail(form: FormData) {
  const value = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const result = eventMailSchema.safeParse({ subject: value("subject"), text: value("text"), audience: value("audience") ?? "both" });
  if (result.success) return { ok: true as const, data: result.data };
  const errors: Partial<Record<EventMailFields, string>> = {};
  for (const issue of result.error.issues) errors[issue.path[0] as EventMailFields] ??= issue.message;
  return { ok: false as const, errors };
}
