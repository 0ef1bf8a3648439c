// The admin panel's forms and its address parameters (tab, search, page, protocol kind).
import { z } from "zod";

export const ADMIN_TABS = ["veranstaltungen", "benutzer", "protokoll"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];

export const PROTOCOL_KINDS = {
  registration: "Anmeldungen",
  helper: "Mitarbeiter*innen",
  user: "Benutzer*innen",
  legal: "Dokumente",
  event: "Veranstaltungen",
  system: "Datenaufbewahrung",
} as const;
export type ProtocolKind = keyof typeof PROTOCOL_KINDS;

export const SEARCH_MAX = 100;

export type PanelQuery = { tab: AdminTab; q: string; page: number; kind: ProtocolKind | null };

/** Reads the page's GET parameters; anything odd falls back to the default, never an error. */
export function readPanelQuery(params: URLSearchParams): PanelQuery {
  const tab = ADMIN_TABS.find((t) => t === params.get("tab")) ?? "veranstaltungen";
  const q = (params.get("q") ?? "").trim().slice(0, SEARCH_MAX);
  const pageNumber = Number(params.get("seite") ?? "1");
  const page = Number.isSafeInteger(pageNumber) && pageNumber > 0 ? pageNumber : 1;
  const kindParam = params.get("art");
  const kind = kindParam && Object.hasOwn(PROTOCOL_KINDS, kindParam) ? (kindParam as ProtocolKind) : null;
  return { tab, q, page, kind };
}

/** The address of a view of the panel; parameters at their default are left out. */
export function panelHref(query: Partial<PanelQuery>) {
  const params = new URLSearchParams();
  if (query.tab && query.tab !== "veranstaltungen") params.set("tab", query.tab);
  if (query.q) params.set("q", query.q);
  if (query.kind) params.set("art", query.kind);
  if (query.page && query.page > 1) params.set("seite", String(query.page));
  const search = params.toString();
  return search ? `/gott?${search}` : "/gott";
}

const userId = z.coerce.number({ invalid_type_error: "Ungültige Angaben" }).int("Ungültige Angaben").positive("Ungültige Angaben");
const back = {
  q: z.string().max(SEARCH_MAX).optional().default(""),
  seite: z.coerce.number().int().positive().optional().default(1),
};

export const userActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("grant-admin"), userId, ...back }),
  z.object({ intent: z.literal("revoke-admin"), userId, ...back }),
  z.object({ intent: z.literal("deactivate"), userId, ...back }),
  z.object({ intent: z.literal("reactivate"), userId, ...back }),
]);
export type UserAction = z.infer<typeof userActionSchema>;
