import { useSyncExternalStore } from "react";

/** The theme mode is kept in local storage (docs/rules/console.md "Shell"). */
export type ThemeMode = "light" | "dark";
export const THEME_STORAGE_KEY = "themeMode";

/**
 * Runs in <head> before the first paint (`<script dangerouslySetInnerHTML={{ __html: themeInitScript }} />`),
 * so a dark console does not flash white while it hydrates.
 */
export const themeInitScript = `try{if(localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})==="dark")document.documentElement.classList.add("dark")}catch(e){}`;

const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const currentMode = (): ThemeMode => (document.documentElement.classList.contains("dark") ? "dark" : "light");

export function setThemeMode(mode: ThemeMode) {
  document.documentElement.classList.toggle("dark", mode === "dark");
  try {
    localStorage.setItem(THEME_STORAGE_KEY, mode);
  } catch {
    // Private browsing may refuse storage; the class change still applies for this visit.
  }
  for (const listener of listeners) listener();
}

/** The mode shown now; "light" on the server, which cannot know. */
export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(subscribe, currentMode, () => "light");
}
