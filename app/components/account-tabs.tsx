import { Link } from "@remix-run/react";

/** The two tabs of the account page, as links (they work without JavaScript). */
export function AccountTabs({ base, tab, contactLabel }: { base: string; tab: "kontakt" | "teilnehmer"; contactLabel: string }) {
  return (
    <nav className="tabs" aria-label="Konto">
      <Link to={base} className={tab === "kontakt" ? "button" : "button secondary"} aria-current={tab === "kontakt" ? "page" : undefined}>
        {contactLabel}
      </Link>
      <Link
        to={`${base}?tab=teilnehmer`}
        className={tab === "teilnehmer" ? "button" : "button secondary"}
        aria-current={tab === "teilnehmer" ? "page" : undefined}
      >
        Deine Teilnehmer*innen
      </Link>
    </nav>
  );
}
