// The group forms of the participant and helper lists (spec part 2 §2.5, §2.6, §4, §5): one
// handler for 'assign-group' (one row, the searchable field with JavaScript), 'assign-groups'
// (every row of the list, the form without JavaScript), 'create-group', 'rename-group' and
// 'delete-group'. It asks the permissions module itself, so a caller cannot forget it: 'assignGroups' to sort people in (the
// camp team too), 'manageGroups' to create, rename or delete groups (lead persons and admins,
// DECISIONS.md); a refusal is a 404 (the list page itself sends strangers home). It answers with a
// redirect to `backTo` carrying the spec's toast as a flash message (PRG, works without JS); a
// refused group name, or a refused row of the searchable field, instead with a 4xx and the words
// next to its field. The list's form of all rows (without JavaScript) saves what it may and
// answers with a redirect whose flash names the rows not saved: the saved rows are written, and a
// reload of a 4xx page would send the whole list again against the new state.
import { redirect } from "@remix-run/node";
import { json } from "./json.server";
import { assignToGroup, createGroup, deleteGroup, renameGroup, type GroupOutcome } from "~/models/group.server";
import { submissionKeyOf } from "~/models/form-submission.server";
import { assignRowsToGroups, type RowChange } from "~/models/group-rows.server";
import { redirectWithFlash } from "./flash.server";
import { readForm } from "./form.server";
import { requireEventCapability } from "./permissions.server";
import { idFrom } from "~/lib/ids";
import { GROUP_ROW_FIELD, type GroupAssignReply } from "~/lib/group-row-field";

export const GROUP_INTENTS = ["assign-group", "assign-groups", "create-group", "rename-group", "delete-group"] as const;
export type GroupIntent = (typeof GROUP_INTENTS)[number];
export const INVALID_INPUT = "Ungültige Angaben";
/** Query parameter of the confirmation step before a group is deleted (works without JS). */
export const CONFIRM_DELETE_PARAM = "gruppeLoeschen";

export function isGroupIntent(value: unknown): value is GroupIntent {
  return typeof value === "string" && (GROUP_INTENTS as readonly string[]).includes(value);
}

function badRequest(): never {
  throw new Response(INVALID_INPUT, { status: 400 });
}

/** A positive id from a form field; throws 400 for anything else. */
function idField(form: FormData, name: string): number {
  return idFrom(form.get(name)) ?? badRequest();
}

/** groupId: an id, or '' / 'none' for 'Keine Gruppe'. */
function optionalGroupId(form: FormData): number | null {
  const value = form.get("groupId");
  if (value === null || value === "" || value === "none") return null;
  return idField(form, "groupId");
}

/** Every row of the list's form; any other field, a malformed value or a row twice is a 400. */
function groupRows(data: FormData): RowChange[] {
  const rows: RowChange[] = [];
  const seen = new Set<string>();
  for (const [name, value] of data) {
    if (name === "intent") continue;
    const match = GROUP_ROW_FIELD.exec(name);
    if (!match || typeof value !== "string") badRequest();
    const id = idFrom(match[2]) ?? badRequest();
    const shown = match[3] === "0" ? null : (idFrom(match[3]) ?? badRequest());
    const chosen = value === "" ? null : (idFrom(value) ?? badRequest());
    if (seen.has(match[1] + id)) badRequest();
    seen.add(match[1] + id);
    rows.push({ target: match[1] === "r" ? { registrationId: id } : { helperUserId: id }, shown, chosen });
  }
  if (rows.length === 0) badRequest();
  return rows;
}

function withoutConfirm(backTo: string) {
  const url = new URL(backTo, "http://x");
  url.searchParams.delete(CONFIRM_DELETE_PARAM);
  return url.pathname + url.search;
}

async function answer(outcome: GroupOutcome, backTo: string, request: Request) {
  return redirectWithFlash(
    withoutConfirm(backTo),
    { kind: outcome.ok ? "success" : outcome.title === "Upps" ? "info" : "danger", title: outcome.title, message: outcome.message },
    { request },
  );
}

/** What a refused group name answers: the message for its field, with what was typed. */
export type GroupNameReply = {
  groupName: { intent: "create-group" | "rename-group"; groupId: number | null; name: string; title: string; message: string; attempt: number };
};

/** A name refused (empty, taken, reserved, too long) is answered next to its field (4xx); the rest as `answer`. */
async function named(
  outcome: GroupOutcome,
  form: { intent: GroupNameReply["groupName"]["intent"]; groupId: number | null; data: FormData },
  backTo: string,
  request: Request,
) {
  if (outcome.ok || outcome.status === 404) return answer(outcome, backTo, request);
  const name = String(form.data.get("name") ?? "").slice(0, 200);
  const reply: GroupNameReply = {
    groupName: { intent: form.intent, groupId: form.groupId, name, title: outcome.title, message: outcome.message, attempt: Date.now() },
  };
  return json(reply, { status: outcome.status });
}

/**
 * Handles one group form of the event's lists. `form` is the already read form when the caller
 * read it (to look at the intent first); otherwise the request's body is read here.
 * `backTo` is a path of this app (for example `/freizeit/helper/12`).
 */
export async function handleGroupForm(request: Request, eventId: number, backTo: string, form?: FormData): Promise<Response> {
  const { user } = await requireEventCapability(request, eventId, "assignGroups", "home");
  const data = form ?? (await readForm(request));
  const intent = data.get("intent");
  if (!isGroupIntent(intent) || !backTo.startsWith("/") || backTo.startsWith("//")) badRequest();
  const sorting = intent === "assign-group" || intent === "assign-groups";
  if (!sorting) await requireEventCapability(request, eventId, "manageGroups", "not-found");
  switch (intent) {
    case "assign-group": {
      const hasRegistration = data.has("registrationId");
      const hasHelper = data.has("helperUserId");
      if (hasRegistration === hasHelper) badRequest();
      const target = hasRegistration
        ? { registrationId: idField(data, "registrationId") }
        : { helperUserId: idField(data, "helperUserId") };
      const outcome = assignToGroup(eventId, target, optionalGroupId(data), user);
      // Sent by the searchable field (JavaScript) for one row: a refusal is said at that field.
      if (!outcome.ok) return json({ groupAssign: { target, message: outcome.message } } satisfies GroupAssignReply, { status: outcome.status });
      return answer(outcome, backTo, request);
    }
    case "assign-groups":
      return redirectWithFlash(withoutConfirm(backTo), assignRowsToGroups(eventId, groupRows(data)), { request });
    case "create-group":
      return named(createGroup(eventId, data.get("name"), { key: submissionKeyOf(data), userId: user.id }), { intent, groupId: null, data }, backTo, request);
    case "rename-group": {
      const groupId = idField(data, "groupId");
      return named(renameGroup(eventId, groupId, data.get("name")), { intent, groupId, data }, backTo, request);
    }
    case "delete-group": {
      const groupId = idField(data, "groupId");
      if (data.get("confirm") !== "yes") {
        const url = new URL(backTo, "http://x");
        url.searchParams.set(CONFIRM_DELETE_PARAM, String(groupId));
        return redirect(url.pathname + url.search);
      }
      return answer(deleteGroup(eventId, groupId), backTo, request);
    }
  }
}
