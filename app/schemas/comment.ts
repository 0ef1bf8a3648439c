// A leader's comment on a participant at an event (spec part 2 §5, 'Comments and reasons').
import { z } from "zod";
import { visibleCharacters } from "~/lib/unseen";

export const COMMENT_TOO_SHORT = "Bitte geben sie ein vollständiges Kommentar an";
export const COMMENT_MAX_LENGTH = 2000;
export const COMMENT_TOO_LONG = `Der Kommentar darf höchstens ${COMMENT_MAX_LENGTH} Zeichen lang sein`;

export const commentText = z
  .string({ required_error: COMMENT_TOO_SHORT, invalid_type_error: COMMENT_TOO_SHORT })
  .transform((text) => text.trim())
  .pipe(z.string().min(2, COMMENT_TOO_SHORT).max(COMMENT_MAX_LENGTH, COMMENT_TOO_LONG))
  // Fillers that show nothing (U+3164, U+2800) are no comment (attack probe).
  // (A text under 2 characters already has its message.)
  .refine((text) => text.length < 2 || visibleCharacters(text) >= 2, COMMENT_TOO_SHORT);

export const commentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("comment-add"), text: commentText }),
  z.object({
    intent: z.literal("comment-edit"),
    commentId: z.coerce.number({ invalid_type_error: "Ungültige Angaben" }).int().positive(),
    text: commentText,
  }),
]);
export type CommentInput = z.infer<typeof commentSchema>;
