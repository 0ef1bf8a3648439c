// The group choice of one person on the participant or helper list (spec part 2 §2.5, §2.6, §4):
// without JavaScript a plain select and a 'Speichern' button per row, all of the list's selects in
// one form (GroupRowsForm), so any row's button saves every row that was changed (PRG); each
// select's name carries the group the page showed, so the server leaves alone a row someone else
// changed meanwhile (group-rows.server.ts). With JavaScript a searchable field (type to filter the
// event's groups, placeholder 'Keine Gruppe') whose choice is sent at once through a fetcher,
// without leaving the page; a refusal is answered for that field (4xx) and said next to it. The
// server (handleGroupForm) decides.
import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "~/components/forms";
import { helperAnchor, rowAnchor } from "~/lib/row-anchors";
import { groupRowField, type GroupAssignReply } from "~/lib/group-row-field";
import { readsAs } from "~/lib/unseen";

export type GroupOption = { id: number; name: string };

type Props = {
  /** The list's own URL: the form posts there and the answer leads back there. */
  action: string;
  groups: GroupOption[];
  groupId: number | null;
  /** Whose group: a registration (participant list) or a helper (helper list). */
  target: { registrationId: number } | { helperUserId: number };
  /** The person's name, for the field's accessible label. */
  name: string;
};

/** The id of the list's one form of group selects (GroupRowsForm); one list per page. */
export const GROUP_ROWS_FORM = "gruppen-zuordnen";

/**
 * The form the list's selects belong to without JavaScript (their `form` attribute): it stands
 * before the table, as a form cannot hold the rows' own decision forms.
 */
export function GroupRowsForm({ action }: { action: string }) {
  return (
    <form id={GROUP_ROWS_FORM} method="post" action={action} hidden>
      <input type="hidden" name="intent" value="assign-groups" />
    </form>
  );
}

export function GroupSelect(props: Props) {
  return useHydrated() ? <SearchableGroup {...props} /> : <PlainGroupSelect {...props} />;
}

function targetField(target: Props["target"]) {
  return "registrationId" in target ? (["registrationId", target.registrationId] as const) : (["helperUserId", target.helperUserId] as const);
}

function PlainGroupSelect({ action, groups, groupId, target, name }: Props) {
  const [field, value] = targetField(target);
  // The answer opens at the row whose button was pressed, not at the top of the list (row-anchors.ts).
  const anchor = field === "registrationId" ? rowAnchor(value) : helperAnchor(value);
  return (
    <div className="group-select">
      <select form={GROUP_ROWS_FORM} name={groupRowField(target, groupId)} aria-label={`Gruppe von ${name}`} defaultValue={groupId === null ? "" : String(groupId)}>
        <option value="">Keine Gruppe</option>
        {groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.name}
          </option>
        ))}
      </select>
      <button type="submit" form={GROUP_ROWS_FORM} formAction={`${action}#${anchor}`} className="small secondary">
        Speichern<span className="visually-hidden"> (alle geänderten Gruppen)</span>
      </button>
    </div>
  );
}

function SearchableGroup({ action, groups, groupId, target, name }: Props) {
  const fetcher = useFetcher();
  const listId = useId();
  const errorId = useId();
  /** The name last sent, so that leaving the field after Enter does not send it twice. */
  const sent = useRef<string | null>(null);
  const currentName = groups.find((g) => g.id === groupId)?.name ?? "";
  const [text, setText] = useState(currentName);
  const [error, setError] = useState<string | null>(null);
  // A new answer from the server (another row, a rename) shows the stored group again.
  useEffect(() => {
    setText(currentName);
    sent.current = null;
  }, [currentName]);
  useEffect(() => {
    if (fetcher.state === "idle") sent.current = null;
  }, [fetcher.state]);
  // Refused by the server (the person's state or the group changed meanwhile): said here, and the
  // field shows the stored group again. Only a new answer counts; the stored name is read as it
  // is then.
  useEffect(() => {
    const refusal = (fetcher.data as GroupAssignReply | undefined)?.groupAssign?.message;
    if (!refusal) return;
    setError(refusal);
    setText(currentName);
  }, [fetcher.data]);

  function commit(value: string) {
    const wanted = readsAs(value.trim());
    const group = wanted ? groups.find((g) => readsAs(g.name) === wanted) : null;
    if (wanted && !group) {
      setError("Diese Gruppe gibt es nicht. Bitte wähle eine aus der Liste. Neue Gruppen legt die Leitung über der Mitarbeiter*innen-Liste an.");
      return;
    }
    setError(null);
    const chosen = group ? group.id : null;
    if (group) setText(group.name);
    if (chosen === groupId || sent.current === (group?.name ?? "")) return;
    sent.current = group?.name ?? "";
    const [field, id] = targetField(target);
    fetcher.submit({ intent: "assign-group", [field]: String(id), groupId: chosen === null ? "" : String(chosen) }, { method: "post", action, preventScrollReset: true });
  }

  return (
    <div className="group-select">
      <input
        type="text"
        list={listId}
        value={text}
        placeholder="Keine Gruppe"
        autoComplete="off"
        aria-label={`Gruppe von ${name}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        disabled={fetcher.state !== "idle"}
        onChange={(event) => {
          setText(event.target.value);
          // A suggestion picked from the list counts at once; typing waits for Enter or leaving.
          const native = event.nativeEvent as InputEvent;
          if (native.inputType === "insertReplacementText") commit(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            commit(text);
          }
        }}
        onBlur={() => {
          if (text !== currentName) commit(text);
        }}
      />
      <datalist id={listId}>
        {groups.map((group) => (
          <option key={group.id} value={group.name} />
        ))}
      </datalist>
      {error ? (
        <p id={errorId} className="field-errors" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
