// What the delete dialog of an upcoming event says about the cancellation mails ('Sie', as the
// dialog's spec text): who gets one, counted per address (models/event-cancellation.server.ts).
import { joinNames } from "./names";

export type CancellationAudience = { families: number; helpers: number; leads: number };

function counted(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

export function cancellationNotice({ families, helpers, leads }: CancellationAudience): string {
  const parts = [
    families ? counted(families, "Familie", "Familien") : null,
    helpers ? counted(helpers, "Helfer*in", "Helfer*innen") : null,
    leads ? counted(leads, "weitere Person der Leitung", "weitere Personen der Leitung") : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return "Es ist niemand angemeldet, es wird keine Absage verschickt.";
  return `Eine Absage per E-Mail bekommen: ${joinNames(parts)}.`;
}
