import { serveProduct, type ServedProduct } from "../../tests/support/serve-product";

/**
 * The product as `npm start` serves it, on the harness's own state folder, build folder and a
 * free port (tests/support/serve-product.ts), so that it never meets a running `npm start` or the
 * browser tests; `kill` ends its whole process group with SIGKILL, as a crash would, and
 * `restart` serves the same state again.
 */
export class Product {
  private served: ServedProduct | undefined;

  constructor(
    private readonly state: string,
    private readonly buildDir: string,
  ) {}

  get origin(): string {
    return this.served!.origin;
  }

  /** What the server printed since it last started. */
  get log(): string {
    return this.served!.log;
  }

  async start(): Promise<void> {
    this.served = await serveProduct(this.state, { keepState: true, env: { PLUGDESK_BUILD_DIR: this.buildDir } });
  }

  /** SIGKILL to npm, wrangler and workerd at once: no shutdown, no flush, whatever was in memory is gone. */
  async kill(): Promise<void> {
    const served = this.served!;
    try {
      process.kill(-served.group, "SIGKILL");
    } catch {
      // already gone
    }
    // Removes what serve-product kept for it, once the group is gone.
    await served.stop();
  }

  restart(): Promise<void> {
    return this.start();
  }

  async stop(): Promise<void> {
    await this.served?.stop();
    this.served = undefined;
  }
}
