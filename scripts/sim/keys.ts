import type { SimulatedCharger } from "./simulated-charger";
import { FAULT_CODES, type FaultCode } from "./faults";

/** The keys the simulator answers in its terminal, as it prints them at start. */
export const KEY_HELP = [
  ["n / p", "select the next / previous connector"],
  ["f", "raise a fault with the chosen error code on the selected connector"],
  ["e", "choose the next error code"],
  ["c", "clear the selected connector's fault"],
  ["s", "show every connector"],
  ["h", "show these keys"],
  ["q / Ctrl-C", "stop (running sessions end: StopTransaction, or TransactionEvent Ended in 2.0.1)"],
] as const;

interface KeyOptions {
  log: (line: string) => void;
  quit: () => void;
}

/**
 * Reads single keys from an interactive terminal and acts on one selected connector at a time.
 * Does nothing when stdin is not a terminal (piped, or under a test runner); answers a function
 * that gives the terminal back.
 */
export function listenToKeys(chargers: readonly SimulatedCharger[], { log, quit }: KeyOptions): () => void {
  const stdin = process.stdin;
  if (!stdin.isTTY || chargers.length === 0) return () => {};
  const targets = chargers.flatMap((charger) => Array.from({ length: charger.connectorCount }, (_, i) => ({ charger, connectorId: i + 1 })));
  let selected = 0;
  let code: FaultCode = "HighTemperature";
  const current = () => targets[selected];
  const name = () => `${current().charger.serialNumber}:${current().connectorId}`;
  const help = () => {
    log(`selected ${name()}, error code ${code}; the keys:`);
    for (const [keys, what] of KEY_HELP) log(`  ${keys.padEnd(11)} ${what}`);
  };

  const act = (key: string) => {
    switch (key) {
      case "n":
      case "p":
        selected = (selected + (key === "n" ? 1 : targets.length - 1)) % targets.length;
        return log(`selected ${name()}`);
      case "e":
        code = FAULT_CODES[(FAULT_CODES.indexOf(code) + 1) % FAULT_CODES.length];
        return log(`error code ${code}`);
      case "f":
        return void current().charger.raiseFault(current().connectorId, code);
      case "c":
        return void current()
          .charger.clearFault(current().connectorId)
          .then((cleared) => cleared || log(`${name()} has no fault to clear`));
      case "s":
        return chargers.flatMap((c) => c.describe()).forEach((line) => log(line));
      case "h":
      case "?":
        return help();
      case "q":
      case "\u0003":
        return quit();
    }
  };

  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.on("data", (data: string) => [...data].forEach(act));
  stdin.resume();
  help();
  return () => {
    stdin.setRawMode(false);
    stdin.pause();
  };
}
