// The in-process halves of a model's global limits: a concurrency gate whose capacity follows the worker's current
// share (lib/features/runs/model-share.ts), and token buckets for requests/min and tokens/min at the share's fraction of
// the model's rates. Pure (a clock can be injected), so tests drive them directly.

/** At most `capacity` functions at once; the capacity may change (0 = start nothing new) while work is queued. */
export class DynamicLimit {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private capacity: number) {}

  get running() {
    return this.active;
  }
  get queued() {
    return this.waiting.length;
  }

  setCapacity(n: number) {
    this.capacity = Math.max(0, Math.floor(n));
    this.drain();
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active < this.capacity && !this.waiting.length) this.active++;
    else await new Promise<void>((r) => this.waiting.push(r)); // drain() counts it as active before waking it
    try {
      return await fn();
    } finally {
      this.active--;
      this.drain();
    }
  }

  private drain() {
    while (this.active < this.capacity && this.waiting.length) {
      this.active++;
      this.waiting.shift()!();
    }
  }
}

type Clock = () => number;

/**
 * Requests per minute and tokens per minute as token buckets refilled continuously. A bucket holds at most one
 * second of its rate (at least one request), so no 60-second window sees more than the rate plus one second's
 * worth. Tokens are charged after a call (its usage is known then); a call waits while the token bucket is empty.
 */
export class RateGate {
  private requests = 0;
  private tokens = 0;
  private last: number;
  private rpm: number | null = null;
  private tpm: number | null = null;

  constructor(private readonly now: Clock = Date.now) {
    this.last = now();
  }

  /** The rates this worker may use (its share of the model's), null = unlimited. */
  setRates(rpm: number | null, tpm: number | null) {
    this.refill();
    this.rpm = rpm;
    this.tpm = tpm;
    this.requests = Math.min(this.requests, this.requestCap());
    this.tokens = Math.min(this.tokens, this.tokenCap());
  }

  private requestCap() {
    return this.rpm === null ? Infinity : Math.max(1, this.rpm / 60);
  }
  private tokenCap() {
    return this.tpm === null ? Infinity : Math.max(1, this.tpm / 60);
  }

  private refill() {
    const t = this.now();
    const dt = Math.max(0, t - this.last) / 60_000;
    this.last = t;
    if (this.rpm !== null) this.requests = Math.min(this.requestCap(), this.requests + dt * this.rpm);
    if (this.tpm !== null) this.tokens = Math.min(this.tokenCap(), this.tokens + dt * this.tpm);
  }

  /** Milliseconds until a request may start (0 = now); takes the request when it may. */
  tryTake(): number {
    this.refill();
    const needReq = this.rpm === null ? 0 : this.requests >= 1 ? 0 : this.rpm > 0 ? ((1 - this.requests) / this.rpm) * 60_000 : 1_000;
    const needTok = this.tpm === null ? 0 : this.tokens > 0 ? 0 : this.tpm > 0 ? ((-this.tokens + 1) / this.tpm) * 60_000 : 1_000;
    const wait = Math.max(needReq, needTok);
    if (wait > 0) return Math.ceil(wait);
    if (this.rpm !== null) this.requests -= 1;
    return 0;
  }

  /** Waits for a request slot. */
  async take(): Promise<void> {
    for (;;) {
      const wait = this.tryTake();
      if (wait === 0) return;
      await new Promise((r) => setTimeout(r, Math.min(wait, 1_000)));
    }
  }

  /** Records the tokens a finished call used (the bucket may go negative: the next calls wait it out). */
  charge(tokens: number | null | undefined) {
    if (this.tpm === null || !tokens) return;
    this.refill();
    this.tokens -= tokens;
  }
}
