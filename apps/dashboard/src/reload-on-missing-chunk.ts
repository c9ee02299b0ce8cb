const RELOADED_AT_KEY = 'dashboard.reloadedForMissingChunk';
/** A chunk still missing this soon after a reload is not a deploy's doing: the error shows instead. */
const RELOAD_LOOP_GUARD_MS = 10_000;

/**
 * A page's chunk that no longer loads (the dashboard was opened before a deploy, and the server now holds
 * only the newer builds' files) is loaded by reloading the page once: the new index.html names the new chunks.
 * Vite dispatches `vite:preloadError` when a dynamic import fails.
 */
export function reloadOnMissingChunk(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const reloadedAt = Number(sessionStorage.getItem(RELOADED_AT_KEY) ?? 0);
    if (Date.now() - reloadedAt < RELOAD_LOOP_GUARD_MS) return;
    sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
    event.preventDefault();
    location.reload();
  });
}
