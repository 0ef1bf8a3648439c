import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { json } from "~/services/json.server";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "~/components/forms";
import { useImpossibleDatesSent } from "~/components/impossible-dates";
import { elementOfFragment, useInPageLinks } from "~/components/in-page-links";
import { useNonce } from "~/components/nonce";
import { PendingNotice } from "~/components/pending-notice";
import { errorPageText } from "~/components/route-error";
import { cachedLegalLinks } from "~/models/legal.server";
import { settings } from "~/services/env.server";
import { takeFlash } from "~/services/flash.server";
import { getUser } from "~/services/session.server";
import styles from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = ({ error }) => [
  // An error page says what happened in the browser's tab and history too.
  { title: error ? `${errorPageText(error).title} – Lagerfeuer` : "Lagerfeuer – Freizeiten und Veranstaltungen" },
  { name: "description", content: "Freizeiten und Veranstaltungen unseres Jugendverbands: ansehen und anmelden." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, pending] = await Promise.all([getUser(request), takeFlash(request)]);
  return json(
    { user, flash: pending?.flash ?? null, links: settings().links, legal: cachedLegalLinks() },
    pending ? { headers: { "Set-Cookie": pending.setCookie } } : undefined,
  );
}

export type RootData = ReturnType<typeof useRootData>;
function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

/**
 * A route that gains from JavaScript says so with `handle = { hydrate: true }`; every other
 * page ships no script at all (it works as plain HTML, which is lighter on an old phone).
 */
export type RouteHandle = { hydrate?: boolean };

function useHydrate() {
  return useMatches().some((match) => (match.handle as RouteHandle | undefined)?.hydrate === true);
}

const HIDE_ACCOUNT_BUTTONS = new Set(["/login", "/signup"]);

function CampfireIcon() {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 3c1 5 7 7 7 14a7 7 0 0 1-14 0c0-4 2-6 3-8 1 3 2 4 3 4-1-4 0-7 1-10z" fill="#b3400b" />
      <path d="M16 14c1 3 4 4 4 7a4 4 0 0 1-8 0c0-2 1-3 2-4 0 1 1 2 1 2 0-2 0-3 1-5z" fill="#f2a33a" />
      <path d="M5 27l22-4M5 23l22 4" stroke="#5b3a1e" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

function SiteHeader() {
  const data = useRootData();
  const { pathname } = useLocation();
  const user = data?.user ?? null;
  // Without the root's data (an error before its loader ran) we do not know who is signed in:
  // no buttons rather than a Login button for a signed-in admin.
  const showButtons = data != null && !HIDE_ACCOUNT_BUTTONS.has(pathname.replace(/\/+$/, "") || "/");
  return (
    <header className="site-header">
      <div className="inner">
        <a href="/" className="logo" aria-label="Lagerfeuer – zur Startseite">
          <CampfireIcon />
          <span>Lagerfeuer</span>
        </a>
        {showButtons ? (
          <nav className="site-nav" aria-label="Benutzerkonto">
            {user ? (
              <>
                {user.role === "admin" ? (
                  <a href="/gott" className="button secondary">
                    Admin Panel
                  </a>
                ) : null}
                <a href="/account" className="button secondary">
                  Account
                </a>
                <form method="post" action="/logout">
                  <button type="submit">Logout</button>
                </form>
              </>
            ) : (
              <>
                <a href="/login" className="button secondary">
                  Login
                </a>
                <a href="/signup" className="button">
                  SignUp
                </a>
              </>
            )}
          </nav>
        ) : null}
      </div>
    </header>
  );
}

function SiteFooter() {
  const data = useRootData();
  const links = data?.links;
  if (!links) return null;
  // The uploaded legal documents (admin panel) win over the association's pages.
  const legal = data.legal;
  const items: [string, string][] = [
    ["Kontakt", links.contact],
    ["Anfahrt", links.directions],
    ["FAQ", links.faq],
    ["Downloads", links.downloads],
    ["Impressum", links.imprint],
    ["Datenschutz", legal?.privacy ?? links.privacy],
    ...(legal?.participationTerms ? [["Teilnahmebedingungen", legal.participationTerms] as [string, string]] : []),
    ...(legal?.generalTerms ? [["AGB", legal.generalTerms] as [string, string]] : []),
  ];
  return (
    <footer className="site-footer">
      <div className="inner">
        <nav aria-label="Verein">
          <ul>
            {items.map(([label, href]) => (
              <li key={label}>
                <a href={href}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

/** The fragment that closes the flash message without JavaScript. */
const FLASH_CLOSED = "meldung-geschlossen";

/**
 * The flash message of the answer that brought it. With JavaScript the root's data is not
 * fetched again on every link, so the message is shown only on the page where it arrived.
 */
function FlashRegion() {
  const arrived = useRootData()?.flash ?? null;
  const { key } = useLocation();
  const [origin, setOrigin] = useState({ flash: arrived, key });
  if (origin.flash !== arrived) setOrigin({ flash: arrived, key });
  const flash = origin.key === key || origin.flash !== arrived ? arrived : null;
  // With JavaScript the message floats at the top of the screen (a row's action far down a list
  // keeps its place) until it is closed or the page changes.
  const floating = useHydrated();
  const [closed, setClosed] = useState<unknown>(null);
  const shown = flash && closed !== flash ? flash : null;
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A page opened at a row (a decision far down a list): the row goes below the floating
    // message, not under it (screens' review). What is scrolled into view keeps clear of it.
    const root = document.documentElement;
    if (!floating || !shown || !region.current) {
      root.style.scrollPaddingTop = "";
      return;
    }
    root.style.scrollPaddingTop = `${region.current.getBoundingClientRect().height + 8}px`;
    elementOfFragment(window.location.hash)?.scrollIntoView({ block: "start" });
  }, [floating, shown]);
  return (
    <div role="status" aria-live="polite" className={floating ? "flash-region floating" : "flash-region"} ref={region}>
      {shown ? (
        <div className={`flash flash-${shown.kind}`}>
          <strong>{shown.title}</strong>
          {shown.message ? <p>{shown.message}</p> : null}
          {floating ? (
            <button type="button" className="flash-close small secondary" onClick={() => setClosed(shown)}>
              Schließen
            </button>
          ) : (
            // Without JavaScript: the link's target hides the message (app.css), and the page
            // stays where it is (leaders' review: it stuck over a quarter of a phone's screen).
            <a href={`#${FLASH_CLOSED}`} className="flash-close button small secondary">
              Schließen
            </a>
          )}
          <span id={FLASH_CLOSED} hidden />
        </div>
      ) : null}
    </div>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const hydrate = useHydrate();
  // Once its scripts run, the app stays a running app on pages that would have none: keeping
  // ScrollRestoration is what opens such a page at its top. A form's redirect to such a page is
  // a document load now (document-loads.server.ts); this stays for any other way there.
  const running = useHydrated();
  return (
    <html lang="de">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#inhalt">
          Zum Inhalt springen
        </a>
        <SiteHeader />
        <FlashRegion />
        <main id="inhalt">{children}</main>
        <SiteFooter />
        {hydrate || running ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the page once React has taken it over, so that browser tests do not type into a form
  // whose JavaScript (a choice that shows fields at once) is not there yet.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useInPageLinks();
  useImpossibleDatesSent();
  return (
    <>
      <Outlet />
      <PendingNotice />
    </>
  );
}

export function ErrorBoundary() {
  const text = errorPageText(useRouteError());
  return <ErrorPage title={text.title}>{text.message}</ErrorPage>;
}

function ErrorPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{title}</h1>
      <p>{children}</p>
      <p>
        <a href="/" className="button">
          Zur Startseite
        </a>
      </p>
    </section>
  );
}
