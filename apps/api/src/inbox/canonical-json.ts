/**
 * The canonical JSON Novu signs an inbox `context` in (`contextHash`), as @tufjs/canonical-json
 * writes it: object keys sorted by code unit, no whitespace, and strings escaping only `\` and `"`.
 * A non-integer number has no canonical form there; it is written as JSON and simply never matches
 * a hash made by Novu's helpers.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${canonicalJson(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
