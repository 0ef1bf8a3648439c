// Error views: the root's page for what no route catches, and a route's own error page inside
// the normal page with its header. Both show the German message a loader or action threw (e.g.
// the spec's 'Die Freizeit wurde nicht gefunden …'); errors Remix makes itself (a POST to a page
// without a form, …) carry English texts, so the person sees ours for the status instead.
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { errorText } from "~/lib/http-errors";

/** The German message our own code threw with a 4xx answer, or null (Remix's, a 5xx, none). */
function ownMessage(error: unknown) {
  if (!isRouteErrorResponse(error) || error.status >= 500) return null;
  const internal = (error as { internal?: boolean }).internal === true;
  return !internal && typeof error.data === "string" && error.data ? error.data : null;
}

/** Heading and text of the root's error page (and its <title>) for what a loader or action threw. */
export function errorPageText(error: unknown) {
  if (!isRouteErrorResponse(error) || error.status >= 500) return errorText(500);
  const message = ownMessage(error);
  if (error.status === 404 || !message) return errorText(error.status);
  return { title: "Das hat nicht geklappt", message };
}

export function RouteError({ title = "Das hat nicht geklappt" }: { title?: string }) {
  const error = useRouteError();
  const message = ownMessage(error);
  const text =
    message !== null
      ? { title, message }
      : isRouteErrorResponse(error) && error.status < 500
        ? errorText(error.status)
        : { title, message: "Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut." };
  return (
    <section className="panel" aria-labelledby="route-error-title">
      <h1 id="route-error-title">{text.title}</h1>
      <p role="alert">{text.message}</p>
      <p>
        <a href="/" className="button">
          Zur Startseite
        </a>
      </p>
    </section>
  );
}
