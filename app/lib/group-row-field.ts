// The name of a row's group select in the list's form without JavaScript (group-select.tsx), read
// back by the group handler (group-form.server.ts): whose group, and the group the page showed
// (0: none), so that the server can tell a change from an old page and leave alone a row someone
// else changed in the meantime.

export type GroupRowTarget = { registrationId: number } | { helperUserId: number };

/** What a refused assignment of one row answers (the searchable field, JavaScript): its message. */
export type GroupAssignReply = { groupAssign: { target: GroupRowTarget; message: string } };

export function groupRowField(target: GroupRowTarget, shown: number | null) {
  const who = "registrationId" in target ? `r${target.registrationId}` : `h${target.helperUserId}`;
  return `group-${who}-from-${shown ?? 0}`;
}

/** The same name read back: kind, id digits and shown group digits ("0": none); null when it is no row's. */
export const GROUP_ROW_FIELD = /^group-([rh])(\d{1,16})-from-(0|\d{1,16})$/;
