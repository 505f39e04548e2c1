/**
 * `npm run bench`: figures for the work every console request does before it reaches a verb
 * (menu tree, route guard, session token hashing) and for password hashing and captchas. It
 * prints numbers and never fails on speed (docs/architecture.md "Tests").
 */
import { performance } from "node:perf_hooks";
import { menuTreeFor } from "../../tenants/permissions";
import { guard } from "../../tenants/route-guard";
import { hashPassword, verifyPassword } from "../../workers/auth/password";
import { generateToken, tokenId } from "../../workers/auth/tokens";
import { randomCaptchaText, renderCaptcha } from "../../workers/auth/captcha-image";

async function measure(name: string, iterations: number, run: () => unknown) {
  for (let i = 0; i < Math.min(iterations, 50); i++) await run();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await run();
  const ms = performance.now() - start;
  console.log(`${name.padEnd(44)} ${(iterations / (ms / 1000)).toFixed(0).padStart(10)} /s   ${((ms / iterations) * 1000).toFixed(1).padStart(9)} µs each`);
}

const role = { type: "NORMAL" as const, menuCodes: ["monitoring", "equipment.point", "carrier.role"] };
const menu = menuTreeFor({ operatorCode: "0PL002", sub: 0, kind: "OPERATOR", edition: "ultimate", adminType: "NORMAL", role });

console.log("Plugdesk bench (Node, one core)\n");
await measure("menu tree for a NORMAL role", 20_000, () => menuTreeFor({ operatorCode: "0PL002", sub: 0, kind: "OPERATOR", edition: "ultimate", adminType: "NORMAL", role }));
await measure("route guard, allowed sub-page", 50_000, () =>
  guard({ path: "/equipmentManagement/point/pointDetail/7", user: { sub: 0, mustChangePassword: false, menu }, operatorDomain: false, storedOperatorCode: undefined }),
);
await measure("session token id (SHA-256)", 50_000, () => tokenId(generateToken()));
await measure("captcha picture", 5_000, () => renderCaptcha(randomCaptchaText()));
const stored = await hashPassword("Demo12345", "bench-pepper");
await measure("password verify (PBKDF2-SHA-256, 100 000 it.)", 20, () => verifyPassword("Demo12345", stored, "bench-pepper"));
