// A step that asks before a decision (a reason, or just 'really?'): reached by a link (GET) with
// the step in the address, a section of the page without JavaScript (the link's fragment scrolls
// to it), a modal <dialog> with it; Escape and 'Abbrechen' go back to the list.
import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/** The id of the step on its page: the fragment of the links that lead to it. */
export const STEP_ANCHOR = "entscheidung";

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
