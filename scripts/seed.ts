import { migrate, seed, stateDir } from "./local-state";

await migrate();
await seed();
console.log(`Local database in ${stateDir()} migrated and seeded.`);
