// 'Export-Menü öffnen' (spec §2.5): the four Excel lists as plain download links in a <details>
// menu, so it opens and works without JavaScript.
const LISTS = [
  ["teilnehmerliste", "Teilnehmerliste"],
  ["zuschussliste", "Zuschussliste"],
  ["mitarbeiterliste", "Mitarbeiterliste"],
  ["gruppenliste", "Gruppenliste"],
] as const;

export function ExportMenu({ eventId }: { eventId: number }) {
  return (
    <details className="export-menu">
      <summary className="button secondary">Export-Menü öffnen</summary>
      <ul>
        {LISTS.map(([list, label]) => (
          <li key={list}>
            <a href={`/freizeit/export/${eventId}/${list}`} download>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
