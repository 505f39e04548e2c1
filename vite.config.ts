import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// PLUGDESK_STATE lets the browser tests run on their own local state, apart from `npm start`'s.
const stateDir = process.env.PLUGDESK_STATE ?? ".wrangler/state";

export default defineConfig({
  server: { host: "127.0.0.1", port: Number(process.env.PORT ?? 8787), strictPort: true },
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  plugins: [
    cloudflare({ viteEnvironment: { name: "ssr" }, persistState: { path: stateDir }, inspectorPort: false }),
    tailwindcss(),
    reactRouter(),
  ],
});
