/**
 * JSON the tests read without declaring its shape: HTTP response bodies and the requests the
 * provider stand-ins record. Each test asserts the fields it relies on; declaring every shape again
 * here would only restate those assertions (the ESLint config lets test/ read untyped values for the
 * same reason).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped on purpose, see above
export type UntypedJson = any;

/** A JSON object whose fields are read untyped (see UntypedJson). */
export type Body = Record<string, UntypedJson>;
