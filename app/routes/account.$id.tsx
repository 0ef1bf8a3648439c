// An admin views and edits another user's account.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AccountContact, type AccountActionData } from "~/components/account-contact";
import { AccountFamily, type FamilyActionData } from "~/components/account-family";
import { AccountTabs } from "~/components/account-tabs";
import { HelperChecksForm } from "~/components/helper-checks-form";
import { accountState } from "~/models/admin.server";
import { getFamily } from "~/models/family.server";
import { getHelperChecks } from "~/models/helper-check.server";
import { getAccount } from "~/models/user.server";
import { handleAccountForm } from "~/services/account-form.server";
import { clientKey } from "~/services/request.server";
import { handleHelperChecksForm, HELPER_CHECKS_PARAM, type HelperChecksActionData } from "~/services/helper-check-form.server";
import { requireAdmin } from "~/services/session.server";
import { randomToken } from "~/services/tokens.server";
import { idFrom } from "~/lib/ids";

export const handle = { hydrate: true };
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.account.firstName} ${data.account.lastName} – Lagerfeuer` : "Konto – Lagerfeuer" },
];

async function loadTarget(request: Request, idParam: string | undefined) {
  const admin = await requireAdmin(request);
  const id = idFrom(idParam);
  if (!id) throw new Response("Nicht gefunden", { status: 404 });
  if (id === admin.id) throw redirect("/account");
  const account = getAccount(id);
  if (!account) throw new Response("Nicht gefunden", { status: 404 });
  return account;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const account = await loadTarget(request, params.id);
  const tab = new URL(request.url).searchParams.get("tab") === "teilnehmer" ? ("teilnehmer" as const) : ("kontakt" as const);
  return json({ account, tab, state: accountState(account.id), family: tab === "teilnehmer" ? getFamily(account.id) : null, checks: tab === "kontakt" ? getHelperChecks(account.id) : null, keys: { child: randomToken(), guardian: randomToken() } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const account = await loadTarget(request, params.id);
  const again = () => loadTarget(request, params.id);
  if (new URL(request.url).searchParams.has(HELPER_CHECKS_PARAM)) return handleHelperChecksForm(request, account.id, `/account/${account.id}`, again);
  return handleAccountForm(request, account, false, `/account/${account.id}`, clientKey(context), again);
}

export default function AdminAccount() {
  const { account, tab, state, family, checks, keys } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const checksReply = (actionData as HelperChecksActionData | undefined)?.helperChecks;
  const name = `${account.firstName} ${account.lastName}`;
  return (
    <>
      <h1>{name}</h1>
      <p>{account.email}</p>
      <p className="account-state">
        Status: <strong>{state?.banned ? "Inaktiv" : "Aktiv"}</strong>
        {state?.banned ? " – das Konto ist deaktiviert: keine Anmeldung möglich, Daten und Anmeldungen bleiben erhalten." : ""}
        {state?.role === "admin" ? " · Admin" : ""} · <a href={`/gott?tab=benutzer&q=${encodeURIComponent(account.email)}`}>In der Benutzerverwaltung</a>
      </p>
      <AccountTabs base={`/account/${account.id}`} tab={tab} contactLabel={name} participantsLabel={`Teilnehmer*innen von ${name}`} />
      {family ? (
        <AccountFamily children={family.children} guardians={family.guardians} keys={keys} actionData={actionData as FamilyActionData} />
      ) : (
        <>
          <AccountContact account={account} self={false} confirmDelete={false} actionData={actionData as AccountActionData} />
          {checks ? <HelperChecksForm action={`/account/${account.id}?${HELPER_CHECKS_PARAM}`} values={checksReply?.values ?? checks} errors={checksReply?.errors} attempt={checksReply?.attempt} /> : null}
        </>
      )}
    </>
  );
}
