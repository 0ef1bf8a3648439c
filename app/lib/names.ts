// Names in a German sentence.
import { formatDate } from "./dates";

/** "Anna", "Anna und Ben", "Anna, Ben und Clara". */
export function joinNames(names: string[]) {
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} und ${names[names.length - 1]}` : (names[0] ?? "");
}

/**
 * The link to one of several enrolment confirmations of an event: its children and its day
 * (parents' walkthrough: three links all read "Anmeldebestätigung vom 24.11.26").
 */
export function confirmationLinkText(enrolment: { id: number; createdAt: number | string }, registrations: { enrolmentId: number | null; firstName: string }[]) {
  const children = registrations.filter((r) => r.enrolmentId === enrolment.id).map((r) => r.firstName);
  const day = formatDate(new Date(enrolment.createdAt));
  return children.length ? `Anmeldebestätigung für ${joinNames(children)} vom ${day}` : `Anmeldebestätigung vom ${day}`;
}
