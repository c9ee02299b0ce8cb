/** Injection tokens of the database layer. */
export const DATABASE = Symbol('DATABASE');
export const PG_POOL = Symbol('PG_POOL');
