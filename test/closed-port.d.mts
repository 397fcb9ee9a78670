/** A port on `host` that nothing listens on and that no ephemeral allocation will hand out. */
export function closedPort(host?: '127.0.0.1' | '::1'): Promise<number>;
