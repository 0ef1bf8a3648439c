// The group choice of one person on the participant or helper list (spec part 2 §2.5, §2.6, §4):
// without JavaScript a plain select and a 'Speichern' button (PRG); with JavaScript the choice
// is sent on change through a fetcher, without leaving the page. The server (handleGroupForm)
// decides; this only asks.
import { useFetcher } from "@remix-run/react";
import { useHydrated } from "~/components/forms";

export type GroupOption = { id: number; name: string };

type Props = {
  /** The list's own URL: the form posts there and the answer leads back there. */
  action: string;
  groups: GroupOption[];
  groupId: number | null;
  /** Whose group: a registration (participant list) or a helper (helper list). */
  target: { registrationId: number } | { helperUserId: number };
  /** The person's name, for the select's accessible label. */
  name: string;
};

export function GroupSelect({ action, groups, groupId, target, name }: Props) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const [field, value] = "registrationId" in target ? ["registrationId", target.registrationId] : ["helperUserId", target.helperUserId];
  const pending = fetcher.state !== "idle" && fetcher.formData ? (fetcher.formData.get("groupId") as string) : null;
  const current = pending ?? (groupId === null ? "" : String(groupId));
  return (
    <fetcher.Form method="post" action={action} className="group-select" preventScrollReset>
      <input type="hidden" name="intent" value="assign-group" />
      <input type="hidden" name={field} value={value} />
      <select
        name="groupId"
        aria-label={`Gruppe von ${name}`}
        value={current}
        onChange={(event) => {
          if (hydrated) fetcher.submit(event.currentTarget.form, { method: "post", action, preventScrollReset: true });
        }}
      >
        <option value="">Keine Gruppe</option>
        {groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.name}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className="small secondary">
          Speichern
        </button>
      )}
    </fetcher.Form>
  );
}
