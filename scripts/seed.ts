import { migrateAndSeed, stateDir } from "./local-state";

await migrateAndSeed();
console.log(`Local database in ${stateDir()} migrated and seeded.`);
