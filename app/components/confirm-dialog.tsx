// A step that asks before a decision (a reason, or just 'really?'): reached by a link (GET) with
// the step in the address, a section of the page without JavaScript (the link's fragment scrolls
// to it), a modal <dialog> with it; Escape and 'Abbrechen' go back to the list.
import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, type MouseEvent, type ReactNode } from "react";
import { useHydrated } from "./forms";

/** The id of the step on its page: the fragment of the links that lead to it. */
export const STEP_ANCHOR = "entscheidung";

/**
 * A link to a step: with its fragment without JavaScript (the new page opens at the step), without
 * it once the app runs (the dialog is modal wherever the page is; a fragment would scroll the
 * list to the step's place at its top, and closing would leave the person there).
 */
function useStepHref(href: string) {
  return useHydrated() ? href.replace(`#${STEP_ANCHOR}`, "") : href;
}

/** The link that opened the step now shown: the focus goes back to it when the step closes. */
let opener: HTMLElement | null = null;

/** Where the focus goes back to when the step it opens closes (a link, a form's button). */
export function rememberOpener(element: HTMLElement) {
  opener = element;
}

/** The props of a link to a step: its address (useStepHref) and the focus's way back. */
export function useStepLink(href: string) {
  return { to: useStepHref(href), onClick: (event: MouseEvent<HTMLElement>) => rememberOpener(event.currentTarget) };
}

/** Runs `cleanup` as the component leaves, before its elements are removed (client only). */
function useBeforeRemoval(cleanup: () => void) {
  const useIt = typeof document === "undefined" ? useEffect : useLayoutEffect;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on leaving
  useIt(() => cleanup, []);
}

/** A step's buttons: its decision (the submit of the step's form) and 'Abbrechen' back to the list. */
export function ConfirmActions({ label, cancelUrl, danger = true, intent }: { label: string; cancelUrl: string; danger?: boolean; intent?: string }) {
  return (
    <div className="actions">
      <button type="submit" className={danger ? "danger" : ""} name={intent ? "intent" : undefined} value={intent}>
        {label}
      </button>
      <Link to={cancelUrl} className="button secondary" preventScrollReset>
        Abbrechen
      </Link>
    </div>
  );
}

type Props = {
  title: string;
  /** Where 'Abbrechen' and Escape lead: the page without the step. */
  cancelUrl: string;
  /** Changes when another step is shown (the dialog opens again as a modal). */
  stepKey: string;
  children: ReactNode;
};

export function ConfirmDialog({ title, cancelUrl, stepKey, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  // The focus goes back to the row's link that opened the step (the dialog took it).
  useBeforeRemoval(() => {
    const back = opener;
    opener = null;
    dialog.current?.close();
    if (back?.isConnected) back.focus({ preventScroll: true });
  });
  useEffect(() => {
    const d = dialog.current;
    if (d?.open && typeof d.showModal === "function" && !d.matches(":modal")) {
      d.close();
      d.showModal();
    }
  }, [stepKey]);
  return (
    <dialog
      open
      ref={dialog}
      id={STEP_ANCHOR}
      className="panel decision-step"
      aria-labelledby={`${STEP_ANCHOR}-titel`}
      onCancel={(event) => {
        event.preventDefault();
        navigate(cancelUrl, { preventScrollReset: true });
      }}
    >
      <h2 id={`${STEP_ANCHOR}-titel`}>{title}</h2>
      {children}
    </dialog>
  );
}
