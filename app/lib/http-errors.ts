// The German words for an error page, by HTTP status: used by the root ErrorBoundary for errors
// the framework makes (its own texts are English) and by the server's plain error page for
// errors that never reach Remix (malformed address, unsupported method).

export type ErrorText = { title: string; message: string };

const TEXTS: Record<number, ErrorText> = {
  400: {
    title: "Ungültige Anfrage",
    message: "Die Anfrage konnte nicht verstanden werden. Bitte prüfen Sie die Adresse oder laden Sie die Seite neu.",
  },
  403: {
    title: "Kein Zugriff",
    message: "Diese Anfrage ist nicht erlaubt.",
  },
  404: {
    title: "Seite nicht gefunden",
    message: "Diese Seite gibt es nicht (mehr). Vielleicht hilft der Weg zurück zur Startseite.",
  },
  405: {
    title: "Anfrage nicht möglich",
    message: "Diese Seite nimmt solche Anfragen nicht an. Bitte öffnen Sie die Seite neu und versuchen Sie es dort erneut.",
  },
  408: {
    title: "Zeit abgelaufen",
    message: "Die Anfrage kam nicht rechtzeitig an. Bitte versuchen Sie es erneut.",
  },
  413: {
    title: "Zu viele Daten",
    message:
      "Die gesendeten Daten sind zu groß. Gehen Sie im Browser einen Schritt zurück: Dort ist das Formular meist noch ausgefüllt. Kürzen Sie dann lange Texte oder senden Sie weniger oder kleinere Dateien.",
  },
  // An Expect header other than 100-continue (no browser sends one).
  417: {
    title: "Anfrage nicht möglich",
    message: "Der Server kann die Bedingung dieser Anfrage (Expect) nicht erfüllen. Bitte senden Sie sie ohne diese Angabe.",
  },
  // Headers too large: nearly always too many or too large cookies.
  431: {
    title: "Zu viele Daten",
    message: "Die Anfrage ist zu groß. Bitte löschen Sie die Cookies dieser Seite und versuchen Sie es erneut.",
  },
};

const CLIENT_ERROR: ErrorText = {
  title: "Das hat nicht geklappt",
  message: "Die Anfrage konnte nicht bearbeitet werden.",
};

const SERVER_ERROR: ErrorText = {
  title: "Da hat etwas nicht geklappt",
  message: "Ein Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.",
};

export function errorText(status: number): ErrorText {
  return TEXTS[status] ?? (status >= 400 && status < 500 ? CLIENT_ERROR : SERVER_ERROR);
}
