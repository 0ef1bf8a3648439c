// Page links of a long list (GET parameters, so they work without JavaScript).
export function AdminPager({ page, pages, hrefOf, label }: { page: number; pages: number; hrefOf: (page: number) => string; label: string }) {
  if (pages <= 1) return null;
  return (
    <nav className="admin-pager" aria-label={label}>
      {page > 1 ? (
        <a href={hrefOf(page - 1)} className="button secondary" rel="prev">
          Vorherige Seite
        </a>
      ) : null}
      <span>
        Seite {page} von {pages}
      </span>
      {page < pages ? (
        <a href={hrefOf(page + 1)} className="button secondary" rel="next">
          Nächste Seite
        </a>
      ) : null}
    </nav>
  );
}
