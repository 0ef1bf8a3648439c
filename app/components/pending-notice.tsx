// With JavaScript a form is sent by a fetch, which the browser's own progress indicator does not
// show: on a weak connection a parent saw nothing happen for seconds and tapped again. This says
// that the answer is on its way (a status region, read out), from 300 ms on, so that quick
// answers do not flicker. Without JavaScript the browser's indicator runs as for any page.
import { useFetchers, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";

const SHOWN_AFTER_MS = 300;

export function PendingNotice() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const text =
    navigation.state === "submitting" || fetchers.some((f) => f.state === "submitting")
      ? "Wird gesendet …"
      : navigation.state === "loading"
        ? "Wird geladen …"
        : "";
  const [shown, setShown] = useState("");
  useEffect(() => {
    if (!text) return setShown("");
    const timer = setTimeout(() => setShown(text), SHOWN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div role="status" aria-live="polite" className="pending-notice">
      {shown}
    </div>
  );
}
