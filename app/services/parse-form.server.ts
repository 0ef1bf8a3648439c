// conform's parseWithZod, with each schema's form coercion built once. conform rebuilds the
// coercing copy of a schema (empty fields to undefined, text to numbers and dates) on every call:
// for the enrolment form that is most of the time it takes to read a submission (0.7 ms).
import { parseWithZod as conformParseWithZod, unstable_coerceFormValue as coerceFormValue } from "@conform-to/zod";
import type { ZodTypeAny } from "zod";

const coerced = new WeakMap<ZodTypeAny, ZodTypeAny>();

/** The same submission as conform's parseWithZod(payload, { schema }) gives. */
export function parseWithZod<Schema extends ZodTypeAny>(payload: FormData | URLSearchParams, options: { schema: Schema }) {
  let schema = coerced.get(options.schema);
  if (!schema) coerced.set(options.schema, (schema = coerceFormValue(options.schema)));
  return conformParseWithZod(payload, { schema: schema as Schema, disableAutoCoercion: true });
}

/**
 * zod checks that two fields match only when every field of the form passed its own checks: this
 * says the mismatch at the second field in any case, so it comes in the same answer as the rest.
 * Undefined when they match, when one is empty (it has its own message) or the field has one.
 */
export function mismatchAtField(
  formData: FormData,
  [first, second]: [string, string],
  message: string,
  error: Record<string, unknown> | null | undefined,
): Record<string, string[]> | undefined {
  const a = formData.get(first);
  const b = formData.get(second);
  if (typeof a !== "string" || typeof b !== "string" || a === "" || b === "" || a === b || error?.[second]) return undefined;
  return { [second]: [message] };
}
