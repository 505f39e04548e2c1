import { workerOrigin } from "../../tests/bench/workerd";
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

  /**
   * Where a fleet's chargers connect: the workerd that runs the worker, past wrangler dev's proxy,
   * as the OCPP bench does (docs/performance.md "Open files, and wrangler's proxy"). A storm of a
   * thousand sockets through the proxy would measure the proxy, which no deployment has.
   */
  chargerOrigin(): Promise<string> {
    return workerOrigin(this.served!.group, this.origin, "/openapi.json", async (res) => res.ok && "openapi" in ((await res.json()) as object));
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
