import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { serveProduct, type ServedProduct } from "../../support/serve-product";

/**
 * Serves the product exactly as `npm start` does, on its own local state and a free port, for
 * the browser and peer tests; stops it afterwards.
 */
declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** What `npm start` printed, wrangler's and the worker's logs included. */
    serverLog: string;
  }
}

let product: ServedProduct | undefined;
// Each run has its own state, so two runs on one machine never share a database.
const state = `.wrangler/e2e-state-${process.pid}`;

export async function setup(project: TestProject) {
  product = await serveProduct(state);
  project.provide("baseURL", product.origin);
  project.provide("serverLog", product.log);
}

export async function teardown() {
  await product?.stop();
  rmSync(state, { recursive: true, force: true });
}
