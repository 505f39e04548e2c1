import { spawn, type ChildProcess } from "node:child_process";
import { setPriority } from "node:os";
import { stripVTControlCharacters } from "node:util";

/**
 * `npm test`: the typecheck, the lint and vitest side by side, failing when any of them fails
 * (docs/testing.md "The runner"). Vitest's output streams as it comes; the typecheck's and the
 * lint's are held and printed whole, under a line naming each and how it ended, as each ends.
 * The last line printed is vitest's closing `Tests: N passed, N failed`
 * (tests/support/summary-reporter.ts), which CI reads: when a check ends after vitest, or one
 * failed, the closing line is printed again at the end. Arguments go to vitest alone
 * (`npm test -- tests/unit/format.test.ts`); the checks always run whole.
 */
const CLOSING = /^Tests: \d+ passed, \d+ failed/;

interface Ended {
  name: string;
  code: number;
}

/** Runs `command`; `onOutput` gets stdout and stderr as they come, in the order they come. */
function start(command: string, args: string[], onOutput: (chunk: Buffer) => void, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
  child.stdout!.on("data", onOutput);
  child.stderr!.on("data", onOutput);
  const ended = new Promise<number>((resolve) => {
    child.on("error", (error) => {
      onOutput(Buffer.from(`${command}: ${error.message}\n`));
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
  return { child, ended };
}

const children: ChildProcess[] = [];
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

/** What was last written to stdout, to know whether the closing line is still the last one. */
let tail = "";
function write(text: string) {
  if (!text) return;
  process.stdout.write(text);
  tail = (tail + text).slice(-4096);
}
const lastLine = () => tail.trimEnd().split("\n").pop() ?? "";

/**
 * A check, its output held until it ends. It runs at a lower priority than vitest: on two cores
 * the tests' own time-outs are the ones to keep clear, and the checks fill what vitest leaves idle.
 */
function check(name: string): Promise<Ended> {
  const chunks: Buffer[] = [];
  const started = Date.now();
  const { child, ended } = start("npm", ["run", "--silent", name], (chunk) => chunks.push(chunk));
  children.push(child);
  try {
    if (child.pid) setPriority(child.pid, 10);
  } catch {
    // Not allowed here: it runs at the same priority, which only costs time.
  }
  return ended.then((code) => {
    const seconds = Math.round((Date.now() - started) / 1000);
    const output = Buffer.concat(chunks).toString();
    write(`\n── npm run ${name}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds} s ──\n${output}${output && !output.endsWith("\n") ? "\n" : ""}`);
    return { name, code };
  });
}

const checks = [check("typecheck"), check("lint")];

let closing: string | undefined;
let pending = "";
// Colours as vitest would print them to this terminal, though its output comes through a pipe.
const colour = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {};
const vitest = start(
  "npx",
  ["vitest", "run", ...process.argv.slice(2)],
  (chunk) => {
    write(chunk.toString());
    const lines = (pending + chunk.toString()).split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (CLOSING.test(stripVTControlCharacters(line))) closing = line;
  },
  { ...process.env, ...colour },
);
children.push(vitest.child);

const results: Ended[] = await Promise.all([...checks, vitest.ended.then((code) => ({ name: "vitest", code }))]);
const failed = results.filter((r) => r.code !== 0);
if (failed.length) write(`\nnpm test failed: ${failed.map((r) => `${r.name} (exit ${r.code})`).join(", ")}\n`);
if (closing && lastLine() !== closing) write(`\n${closing}\n`);
process.exit(failed.length ? 1 : 0);
