// The page of a reset link that cannot be used (expired, used, cut short, or without a token): the
// spec's 'Ungültiger Reset-Token.' and the way to a new link.
import { FormAlert } from "./forms";

export const INVALID_TOKEN = {
  title: "Ungültiger Reset-Token.",
  message: "Beim Zurücksetzen des Passworts ist ein Fehler aufgetreten… Der Link ist abgelaufen oder wurde bereits verwendet.",
};

export function InvalidResetLink() {
  return (
    <section className="panel narrow" aria-labelledby="reset-title">
      <h1 id="reset-title">Passwort zurücksetzen</h1>
      <FormAlert alert={INVALID_TOKEN} />
      <p>
        <a href="/forgot" className="button">
          Neuen Link anfordern
        </a>
      </p>
    </section>
  );
}
