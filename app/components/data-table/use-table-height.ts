import { useEffect, useState } from "react";

/**
 * The table body is the window height minus 210 px, recomputed 500 ms after resizing stops
 * (docs/rules/console.md "Tables").
 */
export const TABLE_HEIGHT_OFFSET = 210;
const RESIZE_DEBOUNCE_MS = 500;

/** Undefined until mounted: the server cannot know the window, so the first paint lets CSS decide. */
export function useTableHeight(offset = TABLE_HEIGHT_OFFSET): number | undefined {
  const [height, setHeight] = useState<number | undefined>(undefined);
  useEffect(() => {
    const measure = () => setHeight(Math.max(0, window.innerHeight - offset));
    measure();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(measure, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener("resize", onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("resize", onResize);
    };
  }, [offset]);
  return height;
}
