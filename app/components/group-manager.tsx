// Groups of an event above the helper list (spec part 2 §2.6, §5): an input with 'Neue Gruppe
// anlegen', each group with its number of members, rename and delete. Deleting asks first, as a
// section of the page (no JavaScript needed).
import { Form, Link } from "@remix-run/react";

export type ManagedGroup = { id: number; name: string; members: number };

export function NewGroupForm({ action }: { action: string }) {
  return (
    <Form method="post" action={action} className="new-group">
      <input type="hidden" name="intent" value="create-group" />
      <label htmlFor="new-group-name" className="visually-hidden">
        Name der neuen Gruppe
      </label>
      <input id="new-group-name" name="name" type="text" maxLength={50} placeholder="Gruppenname" autoComplete="off" />
      <button type="submit">Neue Gruppe anlegen</button>
    </Form>
  );
}

export function GroupManager({ action, groups, confirmId }: { action: string; groups: ManagedGroup[]; confirmId: number | null }) {
  const confirm = confirmId === null ? null : groups.find((g) => g.id === confirmId) ?? null;
  return (
    <section aria-labelledby="groups-title" className="group-manager">
      <h2 id="groups-title">Gruppen</h2>
      {/* A new key after each new group: the input starts empty again (with JavaScript too). */}
      <NewGroupForm key={groups.length} action={action} />
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
        <details className="group-details">
          <summary>Gruppen umbenennen oder löschen ({groups.length})</summary>
          <ul className="group-list">
          {groups.map((group) => (
            <li key={group.id}>
              <Form method="post" action={action} className="group-rename">
                <input type="hidden" name="intent" value="rename-group" />
                <input type="hidden" name="groupId" value={group.id} />
                <label htmlFor={`group-${group.id}`} className="visually-hidden">
                  Name der Gruppe {group.name}
                </label>
                <input id={`group-${group.id}`} name="name" type="text" maxLength={50} defaultValue={group.name} autoComplete="off" />
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
