import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { launchChromiumServer } from "../../support/browser";
import { serveProduct, type ServedProduct } from "../../support/serve-product";

/**
 * Serves the product exactly as `npm start` does, on its own local state and a free port, for
 * the browser and peer tests, and launches the run's one Chromium (docs/testing.md "Browser
 * tests"); stops both afterwards.
 */
declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** What `npm start` printed, wrangler's and the worker's logs included. */
    serverLog: string;
    /** The run's Chromium, for `chromium.connect`. */
    chromiumEndpoint: string;
    /** A folder with one file per screen axe-core has checked in this run (tests/e2e/support/axe.ts). */
    axeChecked: string;
    /** A folder where test files hold the demo state they change (tests/e2e/support/exclusive.ts). */
    heldResources: string;
  }
}

let product: ServedProduct | undefined;
let chromium: BrowserServer | undefined;
let scratch: string | undefined;
// Each run has its own state, so two runs on one machine never share a database.
const state = `.wrangler/e2e-state-${process.pid}`;

export async function setup(project: TestProject) {
  scratch = mkdtempSync(join(tmpdir(), "plugdesk-e2e-"));
  product = await serveProduct(state);
  try {
    chromium = await launchChromiumServer();
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide("baseURL", product.origin);
  project.provide("serverLog", product.log);
  project.provide("chromiumEndpoint", chromium.wsEndpoint());
  const axeChecked = join(scratch, "axe-checked");
  const heldResources = join(scratch, "held");
  mkdirSync(axeChecked);
  mkdirSync(heldResources);
  project.provide("axeChecked", axeChecked);
  project.provide("heldResources", heldResources);
}

export async function teardown() {
  await chromium?.close();
  await product?.stop();
  rmSync(state, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
