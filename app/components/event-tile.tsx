// Plain links: the home list ships no script, so router links would only cost render time.
import { formatIsoDate } from "~/lib/dates";
import { TILE_TEXT, tileButtons, type TileViewer } from "~/lib/event-rules";
import type { EventTile as Tile } from "~/models/event.server";

/** A picture in the sizes a phone and a desktop need; WebP, loaded only when scrolled to. */
export function EventPicture({ pictureKey, sizes, eager = false }: { pictureKey: string; sizes: string; eager?: boolean }) {
  return (
    <img
      src={`/uploads/pictures/${pictureKey}-480.webp`}
      srcSet={`/uploads/pictures/${pictureKey}-480.webp 480w, /uploads/pictures/${pictureKey}-960.webp 960w`}
      sizes={sizes}
      alt=""
      width={480}
      height={270}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
    />
  );
}

export function EventTile({ tile, viewer }: { tile: Tile; viewer: TileViewer }) {
  const buttons = tileButtons(tile, viewer);
  const className = ["tile", tile.past ? "past" : "", tile.highlighted ? "highlighted" : ""].filter(Boolean).join(" ");
  return (
    <li className={className}>
      <div className={tile.pictureKey ? "picture" : "picture placeholder"}>
        {tile.pictureKey ? <EventPicture pictureKey={tile.pictureKey} sizes="(min-width: 40rem) 20rem, 100vw" /> : null}
      </div>
      <div className="body">
        <h3>
          <a href={`/freizeit/${tile.id}`}>{tile.title}</a>
        </h3>
        <p className="meta">
          {formatIsoDate(tile.dateFrom)}
          {tile.dateTo && tile.dateTo !== tile.dateFrom ? ` – ${formatIsoDate(tile.dateTo)}` : ""} · {tile.location}
          {tile.highlighted ? <span className="badge">Deine Veranstaltung</span> : null}
        </p>
        <p>{tile.description.length > TILE_TEXT ? `${tile.description.slice(0, TILE_TEXT - 3)}…` : tile.description}</p>
        <div className="actions">
          <a href={`/freizeit/${tile.id}`} className="button secondary">
            Ansehen
          </a>
          {buttons.edit ? (
            <a href={`/freizeit/edit/${tile.id}`} className="button secondary">
              Bearbeiten
            </a>
          ) : null}
          {buttons.enroll ? (
            <a href={`/enroll/${tile.id}`} className="button">
              Anmeldung
            </a>
          ) : null}
        </div>
      </div>
    </li>
  );
}
