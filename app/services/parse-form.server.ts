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
