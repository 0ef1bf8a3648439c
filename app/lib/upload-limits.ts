// The largest multipart form body (the event form with its picture and attachments), shared by
// the server's refusal (form.server.ts) and the form's check before sending (event-form.tsx).
export const MULTIPART_MAX_BYTES = 60 * 1024 * 1024;
/** Room in that body for the text fields: the files together may take the rest. */
export const FILES_TOGETHER_MAX_BYTES = MULTIPART_MAX_BYTES - 256 * 1024;
