import { migrate, seed } from "./local-state";

migrate();
await seed();
console.log("Local database migrated and seeded.");
