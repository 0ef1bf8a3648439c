import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AccountContact, type AccountActionData } from "~/components/account-contact";
import { AccountFamily, type FamilyActionData } from "~/components/account-family";
import { AccountTabs } from "~/components/account-tabs";
import { CalendarFeed } from "~/components/calendar-feed";
import { calendarFeedState } from "~/models/calendar.server";
import { getFamily } from "~/models/family.server";
import { getAccount } from "~/models/user.server";
import { getOwnPhone } from "~/models/user-phone.server";
import { handleAccountForm } from "~/services/account-form.server";
import { clientKey } from "~/services/request.server";
import { shownCalendarToken } from "~/services/flash.server";
import { requireUser } from "~/services/session.server";
import { randomToken } from "~/services/tokens.server";

export const handle = { hydrate: true };
export const meta: MetaFunction = () => [{ title: "Mein Konto – Lagerfeuer" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const tab = url.searchParams.get("tab") === "teilnehmer" ? ("teilnehmer" as const) : ("kontakt" as const);
  const feed = calendarFeedState(user.id, await shownCalendarToken(request, user.id));
  return json({
    account: getAccount(user.id)!,
    phone: getOwnPhone(user.id),
    tab,
    family: tab === "teilnehmer" ? getFamily(user.id) : null,
    keys: { child: randomToken(), guardian: randomToken() },
    confirmDelete: url.searchParams.has("loeschen"),
    calendarFeed: feed.active,
    calendarAddress: feed.address,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return handleAccountForm(request, user, true, "/account", clientKey(context), () => requireUser(request));
}

export default function Account() {
  const { account, phone, tab, family, keys, confirmDelete, calendarFeed, calendarAddress } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <h1>{tab === "teilnehmer" ? "Deine Teilnehmer*innen" : "Deine Kontaktdaten"}</h1>
      <AccountTabs base="/account" tab={tab} contactLabel="Deine Kontaktdaten" />
      {family ? (
        <AccountFamily children={family.children} guardians={family.guardians} keys={keys} actionData={actionData as FamilyActionData} />
      ) : (
        <>
          <AccountContact account={account} phone={phone} self confirmDelete={confirmDelete} actionData={actionData as AccountActionData}>
            <CalendarFeed active={calendarFeed} address={calendarAddress} />
          </AccountContact>
        </>
      )}
    </>
  );
}
