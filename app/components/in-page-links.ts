// Links to a place on the same page (a refused form's messages, "Zum Inhalt springen"). Without
// JavaScript the browser jumps there and focuses a field. With it, that jump is a navigation React
// Router answers by dropping the last form's answer: the form went back to its first state and
// what a parent had typed was gone (screens' review). So with JavaScript the page does the jump.
import { useEffect } from "react";

const FOCUSABLE = "input, select, textarea, button, a[href], [tabindex]";

/** The element a fragment ("#teilnehmer-2", as in a link or the address) names; null for none,
 * also for a fragment that is no valid escape (anyone can type one into the address). */
export function elementOfFragment(fragment: string | null | undefined) {
  if (!fragment || fragment === "#") return null;
  try {
    return document.getElementById(decodeURIComponent(fragment.replace(/^#/, "")));
  } catch {
    return null;
  }
}

/** Brings `target` into view from its top and gives it the focus (a container gets tabindex -1). */
export function showAndFocus(target: HTMLElement) {
  if (!target.matches(FOCUSABLE)) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
  // A field is shown with its label (or its group's legend) above it, as the jump would not.
  const place = target.matches("input, select, textarea") ? (target.closest<HTMLElement>("fieldset, .field") ?? target) : target;
  // A form's answer is shown under its section's heading (the account's forms), when that is just
  // above it.
  const heading = place.classList.contains("form-alert") ? place.closest("section")?.querySelector<HTMLElement>("h1, h2, h3") : null;
  const below = heading ? place.getBoundingClientRect().top - heading.getBoundingClientRect().top : -1;
  const near = below >= 0 && below < window.innerHeight / 3;
  const from = near && heading ? heading : place;
  const top = place.getBoundingClientRect().top;
  if (from.getBoundingClientRect().top < 0 || top > window.innerHeight / 2) from.scrollIntoView({ block: "start" });
}

export function useInPageLinks() {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href^='#']");
      const target = elementOfFragment(link?.getAttribute("href"));
      if (!target) return;
      event.preventDefault();
      showAndFocus(target);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
}
