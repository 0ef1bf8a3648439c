// The helper list's tables (spec part 2 §2.6): pending and accepted helpers with group, mark,
// state in words, check warnings and the decisions; the declined ones apart.
import { Form, Link } from "@remix-run/react";
import { ConfirmActions, ConfirmDialog, STEP_ANCHOR, useStepLink } from "~/components/confirm-dialog";
import { GroupRowsForm, GroupSelect, type GroupOption } from "~/components/group-select";
import { helperAnchor } from "~/lib/row-anchors";

export type HelperEntry = {
  userId: number;
  firstName: string;
  lastName: string;
  status: "pending" | "accepted" | "declined";
  groupId: number | null;
  groupName: string | null;
  warnings: { kind: string; text: string }[];
};

type Shared = { eventId: number; action: string; groups: GroupOption[]; may: { decideHelpers: boolean; assignGroups: boolean } };

function DecisionButton({ action, intent, userId, name, label, kind = "secondary" }: { action: string; intent: string; userId: number; name: string; label: string; kind?: string }) {
  return (
    <Form method="post" action={`${action}#${helperAnchor(userId)}`} className="inline-form" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="helperUserId" value={userId} />
      <button type="submit" className={`small ${kind}`} aria-label={`${label}: ${name}`}>
        {label}
      </button>
    </Form>
  );
}

/** Decisions that send the helper a mail they cannot undo by themselves: asked first. */
const HELPER_STEPS = {
  decline: {
    title: "Bewerbung ablehnen",
    text: (name: string) => `Die Bewerbung von ${name} wird abgelehnt. ${name} bekommt dazu eine E-Mail.`,
    label: "Ablehnen",
  },
  cancel: {
    title: "Anmeldung stornieren",
    text: (name: string) =>
      `${name} gehört danach nicht mehr zum Team, sieht die Listen nicht mehr und wird aus der Gruppe genommen. Die Bewerbung ist dann wieder offen. ${name} bekommt dazu eine E-Mail.`,
    label: "Anmeldung stornieren",
  },
} as const;
export type HelperStep = { intent: keyof typeof HELPER_STEPS; userId: number; name: string };

/** The step's address: the list with the decision and the person, opened at the step. */
function stepLink(intent: HelperStep["intent"], userId: number) {
  return `?entscheiden=${intent}&helfer=${userId}#${STEP_ANCHOR}`;
}

function StepLink({ intent, userId, name }: { intent: HelperStep["intent"]; userId: number; name: string }) {
  return (
    <Link {...useStepLink(stepLink(intent, userId))} preventScrollReset className="button small danger" aria-label={`${HELPER_STEPS[intent].label}: ${name}`}>
      {HELPER_STEPS[intent].label}
    </Link>
  );
}

/** 'Really?' before a helper's decline or cancellation: a section without JavaScript, a dialog with it. */
export function HelperDecisionStep({ step, action }: { step: HelperStep; action: string }) {
  const texts = HELPER_STEPS[step.intent];
  const back = `${action}#${helperAnchor(step.userId)}`;
  return (
    <ConfirmDialog title={texts.title} cancelUrl={back} stepKey={`${step.intent}-${step.userId}`}>
      <p>{texts.text(step.name)}</p>
      <Form method="post" action={back} preventScrollReset>
        <input type="hidden" name="intent" value={step.intent} />
        <input type="hidden" name="helperUserId" value={step.userId} />
        <ConfirmActions label={texts.label} cancelUrl={back} />
      </Form>
    </ConfirmDialog>
  );
}

function fullName(h: HelperEntry) {
  return `${h.firstName} ${h.lastName}`;
}

export function HelperTable({ helpers, eventId, action, groups, may }: Shared & { helpers: HelperEntry[] }) {
  return (
    <>
      {may.assignGroups ? <GroupRowsForm action={action} /> : null}
      <div className="table-scroll">
        <table className="review-table helper-table card-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Gruppe</th>
              <th scope="col">Anmeldung</th>
              <th scope="col">Aktionen</th>
            </tr>
          </thead>
          <tbody>
            {helpers.map((h) => {
              const accepted = h.status === "accepted";
              return (
                <tr key={h.userId} id={helperAnchor(h.userId)} className={accepted ? "row-green" : "row-red"} data-helper={h.userId}>
                  <th scope="row">
                    <a href={`/freizeit/helper/${eventId}/helper-details/${h.userId}`}>{fullName(h)}</a>
                    {h.warnings.length ? (
                      <ul className="check-warnings" aria-label={`Fehlende Nachweise von ${fullName(h)}`}>
                        {h.warnings.map((w) => (
                          <li key={w.kind}>⚠ {w.text}</li>
                        ))}
                      </ul>
                    ) : null}
                  </th>
                  <td data-label="Gruppe">
                    {accepted && may.assignGroups ? (
                      <GroupSelect action={action} groups={groups} groupId={h.groupId} target={{ helperUserId: h.userId }} name={fullName(h)} />
                    ) : (
                      <span className={h.groupName ? undefined : "muted"}>{h.groupName ?? "Keine Gruppe"}</span>
                    )}
                  </td>
                  <td data-label="Anmeldung">
                    <span className={`mark ${accepted ? "ok" : "missing"}`} aria-hidden="true">
                      {accepted ? "✓" : "○"}
                    </span>{" "}
                    <span className={`status ${accepted ? "status-ok" : "status-pending"}`}>{accepted ? "Angenommen" : "Offen"}</span>
                  </td>
                  <td data-label="Aktionen">
                    {may.decideHelpers ? (
                      <div className="decisions">
                        {accepted ? (
                          <StepLink intent="cancel" userId={h.userId} name={fullName(h)} />
                        ) : (
                          <>
                            <DecisionButton action={action} intent="accept" userId={h.userId} name={fullName(h)} label="Annehmen" kind="" />
                            <StepLink intent="decline" userId={h.userId} name={fullName(h)} />
                          </>
                        )}
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function DeclinedHelpers({ helpers, action, may }: { helpers: HelperEntry[]; action: string; may: Shared["may"] }) {
  return (
    <section aria-labelledby="declined-title">
      <h2 id="declined-title">Abgelehnte Mitarbeiter*innen</h2>
      <ul className="rejected-list">
        {helpers.map((h) => (
          <li key={h.userId} id={helperAnchor(h.userId)} data-helper={h.userId}>
            <strong>{h.firstName || h.lastName ? fullName(h) : "Unbekannter Nutzer"}</strong>
            {" – "}
            <span className={h.groupName ? undefined : "muted"}>{h.groupName ?? "Keine Gruppe"}</span>
            {may.decideHelpers ? (
              <div className="decisions">
                <DecisionButton action={action} intent="revoke-decline" userId={h.userId} name={h.firstName || h.lastName ? fullName(h) : "Unbekannter Nutzer"} label="Ablehnung stornieren" />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
