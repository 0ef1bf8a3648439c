import { Form } from "@remix-run/react";

/** A confirmation link that no longer works, with a way to get a new one. */
export function ExpiredLink() {
  return (
    <section className="panel narrow" aria-labelledby="expired-title">
      <h1 id="expired-title">Link nicht mehr gültig</h1>
      <p>Dieser Bestätigungslink ist abgelaufen oder wurde bereits verwendet.</p>
      <Form method="post" action="/konto-bestaetigen">
        <div className="field">
          <label htmlFor="resend-email">E-Mail</label>
          <input id="resend-email" name="email" type="email" autoComplete="email" required maxLength={50} />
        </div>
        <button type="submit">Neuen Link anfordern</button>
      </Form>
    </section>
  );
}
