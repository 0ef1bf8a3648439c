// Signing in through remix-auth's form strategy. The strategy only carries the form to our own
// verify step: the password check (argon2id), the throttle with device marks (logIn) and the
// database session stay ours.
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { logIn, type LoginResult } from "~/models/auth.server";
import { deviceKeyFor, markDevice, readDeviceMarks } from "./device.server";
import { createUserSession } from "./session.server";

export type SignInOutcome = Exclude<LoginResult, { ok: true }> | { ok: true; userId: number; setCookies: string[] };

/**
 * The form strategy parses the body of the request it is given itself, with no limits. So it
 * never sees the visitor's request: the action reads the body through readForm first, and the
 * strategy gets a small request built from the two already checked fields.
 */
function credentialsRequest(url: string, credentials: { email: string; password: string }) {
  return new Request(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(credentials),
  });
}

/**
 * The authenticator is made per sign-in: its verify step needs this visitor's client address and
 * device marks, which live in the server's context and the visitor's cookie, not in the small
 * request the strategy gets. Making one is two object allocations.
 */
function authenticatorFor(client: { clientKey: string; marks: Awaited<ReturnType<typeof readDeviceMarks>> }) {
  return new Authenticator<LoginResult>().use(
    new FormStrategy(async ({ form }) => {
      const email = String(form.get("email") ?? "");
      const password = String(form.get("password") ?? "");
      return logIn(email, password, { clientKey: client.clientKey, deviceKeyOf: (userId) => deviceKeyFor(client.marks, userId) });
    }),
    "form",
  );
}

/** Signs in with checked credentials; on success the session cookie and a fresh device mark. */
export async function signIn(
  request: Request,
  credentials: { email: string; password: string },
  clientKey: string,
): Promise<SignInOutcome> {
  const marks = await readDeviceMarks(request);
  const outcome = await authenticatorFor({ clientKey, marks }).authenticate("form", credentialsRequest(request.url, credentials));
  if (!outcome.ok) return outcome;
  const setCookies = [
    await createUserSession(outcome.user.id, request),
    await markDevice(request, marks, outcome.user.id),
  ];
  return { ok: true, userId: outcome.user.id, setCookies };
}
