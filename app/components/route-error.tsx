// A route's own error page: it shows the German message the loader or action threw (e.g. the
// spec's 'Die Freizeit wurde nicht gefunden …'), inside the normal page with its header.
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";

export function RouteError({ title = "Das hat nicht geklappt" }: { title?: string }) {
  const error = useRouteError();
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data
      ? error.data
      : "Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.";
  return (
    <section className="panel" aria-labelledby="route-error-title">
      <h1 id="route-error-title">{title}</h1>
      <p role="alert">{message}</p>
      <p>
        <a href="/" className="button">
          Zur Startseite
        </a>
      </p>
    </section>
  );
}
