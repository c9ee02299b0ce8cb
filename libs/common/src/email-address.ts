/** RFC 5321's limit on a path (64 + @ + 255). */
export const MAX_EMAIL_ADDRESS_LENGTH = 320;

/**
 * A bare addr-spec: one `@` between a local part and a domain, neither holding whitespace or control
 * characters (CR/LF would start a new header), nor the characters of address lists, display names,
 * groups, quoting and comments (`, ; : < > ( ) [ ] \ "`). Permissive beyond that (no TLD required,
 * UTF-8 allowed): the rule is there so one stored address can only ever reach one mailbox.
 */
const EMAIL_ADDRESS = /^[^\s\p{Cc}\p{Zl}\p{Zp}@,;:<>()[\]\\"]+@[^\s\p{Cc}\p{Zl}\p{Zp}@,;:<>()[\]\\"]+$/u;

export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_EMAIL_ADDRESS_LENGTH && EMAIL_ADDRESS.test(value);
}

export const EMAIL_ADDRESS_RULE = 'one email address (no list, display name, line break or comma)';
