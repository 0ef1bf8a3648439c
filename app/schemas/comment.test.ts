import { describe, expect, it } from "vitest";
import { COMMENT_TOO_LONG, COMMENT_TOO_SHORT, commentSchema } from "./comment";

describe("the comment form", () => {
  it.each(["", " ", " a ", "\n\tx\n", "\u3164\u3164", "\u2800 \u2800"])("refuses %j: fewer than 2 visible characters after trimming", (text) => {
    const result = commentSchema.safeParse({ intent: "comment-add", text });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([COMMENT_TOO_SHORT]);
  });

  it("refuses a missing text with the same message", () => {
    expect(commentSchema.safeParse({ intent: "comment-add" }).error?.issues[0].message).toBe(COMMENT_TOO_SHORT);
  });

  it("keeps 2 characters, trimmed", () => {
    expect(commentSchema.parse({ intent: "comment-add", text: "  ok  " })).toEqual({ intent: "comment-add", text: "ok" });
  });

  it("refuses more than 2000 characters", () => {
    expect(commentSchema.safeParse({ intent: "comment-add", text: "x".repeat(2000) }).success).toBe(true);
    expect(commentSchema.safeParse({ intent: "comment-add", text: "x".repeat(2001) }).error?.issues[0].message).toBe(COMMENT_TOO_LONG);
  });

  it("an edit names a comment by its number", () => {
    expect(commentSchema.parse({ intent: "comment-edit", commentId: "7", text: "neu" })).toEqual({ intent: "comment-edit", commentId: 7, text: "neu" });
    expect(commentSchema.safeParse({ intent: "comment-edit", commentId: "x", text: "neu" }).success).toBe(false);
  });
});
