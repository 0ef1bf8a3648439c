// Comments of an event's staff on a participant (DECISIONS.md, 'Comments'): about a participant
// at one event, seen and written by that event's staff; each author edits only their own.
import { and, asc, eq } from "drizzle-orm";
import { comments, users } from "../../db/schema";
import { db, writeTransaction } from "~/services/db.server";
import { earlierSubmission, recordSubmission } from "./form-submission.server";

export type CommentView = {
  id: number;
  text: string;
  createdAt: number;
  /** Set when the text was changed after it was written. */
  editedAt: number | null;
  author: string | null;
  mine: boolean;
};

export function listComments(participantId: number, eventId: number, viewerId: number): CommentView[] {
  return db
    .select({
      id: comments.id,
      text: comments.text,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      authorId: comments.authorId,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(comments)
    .leftJoin(users, eq(users.id, comments.authorId))
    .where(and(eq(comments.participantId, participantId), eq(comments.eventId, eventId)))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .all()
    .map((c) => ({
      id: c.id,
      text: c.text,
      createdAt: c.createdAt.getTime(),
      editedAt: c.updatedAt.getTime() - c.createdAt.getTime() > 1000 ? c.updatedAt.getTime() : null,
      author: c.firstName ? `${c.firstName} ${c.lastName}` : null,
      mine: c.authorId === viewerId,
    }));
}

/**
 * Writes a comment, once per form: a second submission with the same key (a double tap, a form
 * sent again) finds the first and writes nothing. `form.page` is where the comment is shown.
 */
export function addComment(
  input: { participantId: number; eventId: number; authorId: number; text: string },
  form: { key: string | null; page: string } = { key: null, page: "" },
) {
  writeTransaction((tx) => {
    if (earlierSubmission(tx, form.key, input.authorId)) return;
    tx.insert(comments).values(input).run();
    recordSubmission(tx, form.key, input.authorId, form.page);
  });
}

/**
 * Changes the text of the author's own comment on this participant at this event. False when
 * there is no such comment or it is someone else's: nothing is changed then.
 */
export function updateOwnComment(input: { commentId: number; participantId: number; eventId: number; authorId: number; text: string }) {
  const result = db
    .update(comments)
    .set({ text: input.text, updatedAt: new Date() })
    .where(
      and(
        eq(comments.id, input.commentId),
        eq(comments.participantId, input.participantId),
        eq(comments.eventId, input.eventId),
        eq(comments.authorId, input.authorId),
      ),
    )
    .run();
  return result.changes === 1;
}
