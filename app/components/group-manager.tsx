// Groups of an event above the helper list (spec part 2 §2.6, §5): an input with 'Neue Gruppe
// anlegen', each group with its number of members, rename and delete. Deleting asks first, as a
// section of the page (no JavaScript needed).
import { Form, Link } from "@remix-run/react";
import type { GroupNameReply } from "~/services/group-form.server";

export type ManagedGroup = { id: number; name: string; members: number };
type Reply = GroupNameReply["groupName"] | undefined;

/** A group name's field; a refused name comes back in it, its message beside it, focused. */
function NameField({ id, label, defaultValue, refused, placeholder }: { id: string; label: string; defaultValue: string; refused: Reply; placeholder?: string }) {
  const errorId = `${id}-error`;
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        name="name"
        type="text"
        maxLength={50}
        placeholder={placeholder}
        autoComplete="off"
        defaultValue={refused ? refused.name : defaultValue}
        aria-invalid={refused ? true : undefined}
        aria-describedby={refused ? errorId : undefined}
        autoFocus={Boolean(refused)}
      />
      {refused ? (
        <p id={errorId} className="field-errors">
          {/* The spec's toast has a title and a message ('Upps' / 'Du musst …'): both. */}
          <strong>{refused.title}:</strong> {refused.message}
        </p>
      ) : null}
    </>
  );
}

export function NewGroupForm({ action, refused, submissionKey }: { action: string; refused?: Reply; submissionKey: string }) {
  return (
    <Form method="post" action={action} className="new-group">
      <input type="hidden" name="intent" value="create-group" />
      <input type="hidden" name="submissionKey" value={submissionKey} />
      <NameField id="new-group-name" label="Name der neuen Gruppe" defaultValue="" refused={refused} placeholder="Gruppenname" />
      <button type="submit">Neue Gruppe anlegen</button>
    </Form>
  );
}

type Props = { action: string; groups: ManagedGroup[]; confirmId: number | null; reply?: Reply; submissionKey: string };

export function GroupManager({ action, groups, confirmId, reply, submissionKey }: Props) {
  const confirm = confirmId === null ? null : groups.find((g) => g.id === confirmId) ?? null;
  const created = reply?.intent === "create-group" ? reply : undefined;
  const renamed = reply?.intent === "rename-group" && groups.some((g) => g.id === reply.groupId) ? reply : undefined;
  return (
    <section aria-labelledby="groups-title" className="group-manager">
      <h2 id="groups-title">Gruppen</h2>
      {/* A new key after each new group or refusal: the input starts again from what the server sent. */}
      <NewGroupForm key={`${groups.length}-${created?.attempt ?? ""}`} action={action} refused={created} submissionKey={submissionKey} />
      {confirm ? (
        <div role="alertdialog" aria-labelledby="confirm-delete-title" className="panel confirm-delete" id="gruppe-loeschen">
          <h3 id="confirm-delete-title">Gruppe „{confirm.name}“ löschen?</h3>
          <p>
            {confirm.members === 0
              ? "Die Gruppe hat keine Mitglieder."
              : `${confirm.members === 1 ? "Das eine Mitglied ist" : `Die ${confirm.members} Mitglieder sind`} danach keiner Gruppe mehr zugeordnet.`}
          </p>
          <div className="actions">
            <Form method="post" action={action} className="inline-form">
              <input type="hidden" name="intent" value="delete-group" />
              <input type="hidden" name="groupId" value={confirm.id} />
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" className="danger">
                Ja, Gruppe löschen
              </button>
            </Form>
            {/* Stays on the list: what was typed into the group fields is kept (JavaScript). */}
            <Link to={action} className="button secondary" preventScrollReset>
              Abbrechen
            </Link>
          </div>
        </div>
      ) : null}
      {groups.length === 0 ? (
        <p className="muted">Noch keine Gruppen angelegt.</p>
      ) : (
        <details className="group-details" open={renamed ? true : undefined}>
          <summary>Gruppen umbenennen oder löschen ({groups.length})</summary>
          <ul className="group-list">
          {groups.map((group) => (
            <li key={group.id}>
              <Form method="post" action={action} className="group-rename" key={renamed?.groupId === group.id ? renamed.attempt : "group"}>
                <input type="hidden" name="intent" value="rename-group" />
                <input type="hidden" name="groupId" value={group.id} />
                <NameField id={`group-${group.id}`} label={`Name der Gruppe ${group.name}`} defaultValue={group.name} refused={renamed?.groupId === group.id ? renamed : undefined} />
                <span className="muted">{group.members === 1 ? "1 Mitglied" : `${group.members} Mitglieder`}</span>
                <button type="submit" className="small secondary">
                  Umbenennen
                </button>
              </Form>
              <Form method="post" action={action} className="inline-form">
                <input type="hidden" name="intent" value="delete-group" />
                <input type="hidden" name="groupId" value={group.id} />
                <button type="submit" className="small danger" aria-label={`Gruppe ${group.name} löschen`}>
                  Löschen
                </button>
              </Form>
            </li>
          ))}
          </ul>
        </details>
      )}
    </section>
  );
}
