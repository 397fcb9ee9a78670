// A page's Content-Security-Policy may forbid what the console loads: a connection to an origin (connect-src), a blob:
// image preview (img-src). fetch then fails just as it does for a dead server or a CORS refusal ("Failed to fetch"),
// and an image just as an undecodable one; only the securitypolicyviolation event that browsers fire at the page,
// and that bubbles to the window, tells them apart. Outside a browser nothing fires it.

/** The fields of a SecurityPolicyViolationEvent read here (core needs no DOM types). */
interface PolicyViolation {
  effectiveDirective?: string;
  blockedURI?: string;
  originalPolicy?: string;
}

interface ViolationSource {
  addEventListener?(type: 'securitypolicyviolation', listener: (event: PolicyViolation) => void): void;
  removeEventListener?(type: 'securitypolicyviolation', listener: (event: PolicyViolation) => void): void;
}

/** Listens, while one thing is loaded, for the page's policy blocking it under `directive`. */
export class PolicyViolationWatch {
  readonly #source = globalThis as ViolationSource;
  readonly #directive: string;
  readonly #isWatched: (blockedUri: string) => boolean;
  #seen = false;
  #policy: string | undefined;

  /** @param isWatched whether a violation's blocked URI (`blob` for a blob: URL, as Chromium reports it) is the watched load */
  constructor(directive: string, isWatched: (blockedUri: string) => boolean) {
    this.#directive = directive;
    this.#isWatched = isWatched;
    this.#source.addEventListener?.('securitypolicyviolation', this.#onViolation);
  }

  /**
   * Whether the page's policy blocked the load. Chromium reports the violation just after the load fails, so a
   * failure waits one task for it.
   */
  async seen(): Promise<boolean> {
    if (!this.#seen) await new Promise((resolve) => setTimeout(resolve, 0));
    return this.#seen;
  }

  /** The text of the policy that blocked the load, once seen. */
  get blockingPolicy(): string | undefined {
    return this.#policy;
  }

  stop(): void {
    this.#source.removeEventListener?.('securitypolicyviolation', this.#onViolation);
  }

  readonly #onViolation = (event: PolicyViolation): void => {
    if (event.effectiveDirective === this.#directive && this.#isWatched(event.blockedURI ?? '')) {
      this.#seen = true;
      this.#policy = event.originalPolicy;
    }
  };
}

/** A watch for the page's connect-src refusing a connection to the origin of `url`. */
export function watchConnectionsTo(url: string): PolicyViolationWatch {
  const { origin } = new URL(url);
  return new PolicyViolationWatch('connect-src', (blocked) => URL.canParse(blocked) && new URL(blocked).origin === origin);
}
