/**
 * Reads until the value is as expected or the time is up, then answers the last value read, so
 * the test's own assertion says what differed. For effects of queues, which run on their own.
 */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
