/**
 * Reads until the value is as expected or the time is up, then answers the last value read, so
 * the test's own assertion says what differed. For effects of queues, of chargers' batches and of
 * a served product, which run on their own; never a statement about time. The one polling helper
 * of every layer (docs/testing.md "Browser tests"): it imports nothing, so it runs in the Workers
 * runtime of the integration tests as well as in Node.
 */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
