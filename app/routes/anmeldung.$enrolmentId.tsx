// The confirmation page of one enrolment: where the enrolment form leads (post/redirect/get),
// and found again from the event page and the account.
import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import { useLoaderData } from "@remix-run/react";
import { Confirmation } from "~/components/enrollment/confirmation";
import { RouteError } from "~/components/route-error";
import { epcPayload, qrPath } from "~/lib/epc-qr";
import { getEnrolmentConfirmation } from "~/models/enrollment-confirmation.server";
import { settings } from "~/services/env.server";
import { requireUser } from "~/services/session.server";
import { idFrom } from "~/lib/ids";

export const meta: MetaFunction = () => [{ title: "Anmeldebestätigung – Lagerfeuer" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = idFrom(params.enrolmentId);
  const enrolment = id ? getEnrolmentConfirmation(id, user) : null;
  if (!enrolment) throw new Response("Diese Anmeldung wurde nicht gefunden.", { status: 404 });
  const bank = settings().bank;
  // One GiroCode per transfer asked for (usually one: the whole open amount); none for a debit.
  const transfers = enrolment.paymentMethod === "transfer" ? enrolment.openParts : [];
  const codes = transfers.map((part) =>
    qrPath(epcPayload({ bic: bank.bic, name: bank.accountHolder, iban: bank.iban, amountCents: part.cents, text: enrolment.reference })),
  );
  return json({ enrolment, bank, codes }, { headers: { "Cache-Control": "private, no-store" } });
}

export function ErrorBoundary() {
  return <RouteError title="Anmeldebestätigung" />;
}

export default function EnrolmentConfirmationPage() {
  const { enrolment, bank, codes } = useLoaderData<typeof loader>();
  return <Confirmation enrolment={enrolment} bank={bank} codes={codes} />;
}
