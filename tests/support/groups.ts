// A group made through the model's own rule (createGroup), for the group tests: its id, or the
// refusal's message thrown.
import { createGroup } from "~/models/group.server";

export function newGroup(eventId: number, name: string) {
  const outcome = createGroup(eventId, name);
  if (!outcome.ok || outcome.groupId === null) throw new Error(outcome.message);
  return outcome.groupId;
}
