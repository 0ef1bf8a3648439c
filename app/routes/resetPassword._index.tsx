// /resetPassword without a token (a link cut short in a mail program): the page of an unusable
// link, as the spec asks for a missing token ('Ungültiger Reset-Token.').
import type { MetaFunction } from "@remix-run/node";
import { InvalidResetLink } from "~/components/invalid-reset-link";

export const meta: MetaFunction = () => [{ title: "Passwort zurücksetzen – Lagerfeuer" }];

export default function ResetPasswordWithoutToken() {
  return <InvalidResetLink />;
}
