import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // `npm run chaos` builds into a folder of its own (PLUGDESK_BUILD_DIR), never into a build another run serves.
  buildDirectory: process.env.PLUGDESK_BUILD_DIR ?? "build",
  future: { v8_viteEnvironmentApi: true },
} satisfies Config;
