// The comment history of a participant at an event (spec part 2 §2.4, §5): staff read it, those
// allowed write, each author edits their own (the server checks that, not this page).
import { Form, Link } from "@remix-run/react";
import { formatDate, formatTime } from "~/lib/dates";
import { COMMENT_MAX_LENGTH } from "~/schemas/comment";
import { ErrorList } from "./forms";

export type CommentItem = { id: number; text: string; createdAt: number; editedAt: number | null; author: string | null; mine: boolean };

/** What the action answers when a comment is refused. */
export type CommentReply = { comment?: { intent: "comment-add" | "comment-edit"; commentId: number | null; errors: string[]; text: string } };

type Props = {
  comments: CommentItem[];
  /** The new comment's one-time key (a double submit writes once). */
  submissionKey: string;
  canWrite: boolean;
  /** The comment being edited (`?bearbeiten=`), only ever one of the viewer's own. */
  editingId: number | null;
  pageUrl: string;
  reply: CommentReply["comment"] | undefined;
};

function stamp(at: number) {
  return `${formatDate(at)}, ${formatTime(at)}`;
}

function CommentText({ label, id, defaultValue, errors }: { label: string; id: string; defaultValue: string; errors: string[] }) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {/* Parents see the comments on their children (DECISIONS.md); whoever writes should know. No
          form of address: the spec's error below says "sie", the staff pages "du". */}
      <p id={hintId} className="hint">
        Die Eltern sehen jeden Kommentar in ihrem Konto, mit dem Namen der Person, die ihn geschrieben hat.
      </p>
      <textarea
        id={id}
        name="text"
        rows={3}
        maxLength={COMMENT_MAX_LENGTH}
        defaultValue={defaultValue}
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={errors.length ? `${hintId} ${errorId}` : hintId}
        autoFocus={errors.length > 0}
      />
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function CommentHistory({ comments, submissionKey, canWrite, editingId, pageUrl, reply }: Props) {
  const editReply = reply?.intent === "comment-edit" ? reply : undefined;
  const addReply = reply?.intent === "comment-add" ? reply : undefined;
  const editing = editReply?.commentId ?? editingId;
  const editUrl = (id: number) => `${pageUrl}${pageUrl.includes("?") ? "&" : "?"}bearbeiten=${id}#kommentar-${id}`;
  return (
    <section aria-labelledby="comments-title" className="panel comments-panel">
      <h2 id="comments-title">Kommentarverlauf</h2>
      {comments.length === 0 ? <p>Noch keine Kommentare.</p> : null}
      <ol className="comment-list">
        {comments.map((c) => (
          <li key={c.id} id={`kommentar-${c.id}`}>
            <p className="comment-meta">
              <strong>{c.author ?? "Unbekannter Nutzer"}</strong>, <time dateTime={new Date(c.createdAt).toISOString()}>{stamp(c.createdAt)}</time>
              {c.editedAt ? <span className="muted"> (bearbeitet am {stamp(c.editedAt)})</span> : null}
            </p>
            {canWrite && c.mine && editing === c.id ? (
              <Form method="post" action={pageUrl} preventScrollReset>
                <input type="hidden" name="intent" value="comment-edit" />
                <input type="hidden" name="commentId" value={c.id} />
                <CommentText label="Kommentar bearbeiten*" id={`comment-${c.id}`} defaultValue={editReply?.text ?? c.text} errors={editReply?.errors ?? []} />
                <div className="actions">
                  <button type="submit">Speichern</button>
                  <Link to={pageUrl} className="button secondary" preventScrollReset>
                    Abbrechen
                  </Link>
                </div>
              </Form>
            ) : (
              <>
                <p className="pre-line">{c.text}</p>
                {canWrite && c.mine ? (
                  <Link to={editUrl(c.id)} className="button secondary small" preventScrollReset aria-label={`Kommentar vom ${stamp(c.createdAt)} bearbeiten`}>
                    Bearbeiten
                  </Link>
                ) : null}
              </>
            )}
          </li>
        ))}
      </ol>
      {canWrite ? (
        <Form method="post" action={pageUrl} preventScrollReset className="comment-form" key={comments.length}>
          <input type="hidden" name="intent" value="comment-add" />
          <input type="hidden" name="submissionKey" value={submissionKey} />
          <CommentText label="Neuer Kommentar*" id="new-comment" defaultValue={addReply?.text ?? ""} errors={addReply?.errors ?? []} />
          <button type="submit">Kommentar hinzufügen</button>
        </Form>
      ) : null}
    </section>
  );
}
