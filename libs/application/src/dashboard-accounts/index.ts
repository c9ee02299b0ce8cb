export * from './dashboard-users.service.js';
export * from './dashboard-sessions.service.js';
export { csrfTokenOf, sameSecret } from './secret-tokens.js';
export { generatePassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords.js';
