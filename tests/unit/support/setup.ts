import { vi } from "vitest";

/**
 * The unit files of one worker share its process, one after another (`isolate: false` in
 * vitest.config.ts, docs/testing.md "Unit tests"): what the file before left is undone first, as
 * the integration files' setup does. vitest itself keeps each file's `vi.mock` to that file; a
 * stubbed global or variable, a spy or fake timers it leaves to the file, so they go here. A file
 * that changes a module's state by other means puts it back itself.
 */
vi.restoreAllMocks();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
vi.useRealTimers();
