/** Most endpoints remembered per worker; beyond it the longest-unused is forgotten (closed). */
const MAX_ENDPOINTS = 10_000;

interface Circuit {
  failures: number;
  /** Sends wait until then (ms since epoch); 0 while closed. */
  openUntil: number;
  /** When the one trial send after an open window started; 0 when none is out. */
  probeSince: number;
}

/**
 * One circuit per endpoint (an integration, or a webhook host of a subscriber's chat entry) in one
 * worker. After `threshold` failures in a row that say the endpoint is down (timeouts, network
 * errors, 5xx, 429), sends to it pause for `openMs`; then one trial send goes through: its success
 * closes the circuit, its failure opens it again. So a dead endpoint costs this worker one timeout
 * per window instead of one per message. Each worker learns on its own: N workers pay at most N.
 */
export class CircuitBreakers {
  private readonly circuits = new Map<string, Circuit>();

  constructor(
    private readonly threshold: number,
    private readonly openMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long sends to the endpoint must wait (ms); 0 lets this one go (closed, or the trial send). */
  blockedFor(endpoint: string): number {
    if (this.threshold === 0) return 0;
    const circuit = this.circuits.get(endpoint);
    if (!circuit || circuit.openUntil === 0) return 0;
    const now = this.now();
    if (circuit.openUntil > now) return circuit.openUntil - now;
    // A trial still out after a whole window (its worker stopped mid-send) no longer counts.
    if (circuit.probeSince !== 0 && now - circuit.probeSince < this.openMs) return this.openMs;
    circuit.probeSince = now;
    return 0;
  }

  succeeded(endpoint: string): void {
    this.circuits.delete(endpoint);
  }

  /** A failure that says the endpoint is down; other failures (4xx, bad credentials) leave it closed. */
  failed(endpoint: string): void {
    if (this.threshold === 0) return;
    const circuit = this.circuits.get(endpoint) ?? { failures: 0, openUntil: 0, probeSince: 0 };
    this.circuits.delete(endpoint);
    circuit.failures++;
    if (circuit.probeSince !== 0 || circuit.failures >= this.threshold) {
      circuit.openUntil = this.now() + this.openMs;
      circuit.probeSince = 0;
    }
    if (this.circuits.size >= MAX_ENDPOINTS) this.circuits.delete(this.circuits.keys().next().value!);
    this.circuits.set(endpoint, circuit);
  }
}
