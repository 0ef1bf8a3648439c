import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AccountContact, type AccountActionData } from "~/components/account-contact";
import { getAccount } from "~/models/user.server";
import { handleAccountForm } from "~/services/account-form.server";
import { requireUser } from "~/services/session.server";

export const handle = { hydrate: true };
export const meta: MetaFunction = () => [{ title: "Mein Konto – Lagerfeuer" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const account = getAccount(user.id)!;
  return json({ account, confirmDelete: new URL(request.url).searchParams.has("loeschen") });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return handleAccountForm(request, user, true, "/account");
}

export default function Account() {
  const { account, confirmDelete } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as AccountActionData;
  return (
    <>
      <h1>Deine Kontaktdaten</h1>
      <AccountContact account={account} self confirmDelete={confirmDelete} actionData={actionData} />
    </>
  );
}
