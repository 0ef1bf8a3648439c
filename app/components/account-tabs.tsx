
/**
 * The two tabs of the account page, as links (they work without JavaScript). On /account they read
 * 'Deine …'; an admin viewing someone else sees that person's name in both (spec part 2 §2.10).
 */
export function AccountTabs({
  base,
  tab,
  contactLabel,
  participantsLabel = "Deine Teilnehmer*innen",
}: {
  base: string;
  tab: "kontakt" | "teilnehmer";
  contactLabel: string;
  participantsLabel?: string;
}) {
  return (
    <nav className="tabs account-tabs" aria-label="Konto">
      <a href={base} className={tab === "kontakt" ? "button" : "button secondary"} aria-current={tab === "kontakt" ? "page" : undefined}>
        {contactLabel}
      </a>
      <a
        href={`${base}?tab=teilnehmer`}
        className={tab === "teilnehmer" ? "button" : "button secondary"}
        aria-current={tab === "teilnehmer" ? "page" : undefined}
      >
        {participantsLabel}
      </a>
    </nav>
  );
}
