/**
 * The option a key press moves to in a combobox's list (WAI-ARIA combobox pattern): down and up
 * wrap around, Home and End jump to the ends; `undefined` for any other key or an empty list.
 */
export function movedTo(key: string, active: number, count: number): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case "ArrowDown":
      return active < 0 ? 0 : (active + 1) % count;
    case "ArrowUp":
      return active <= 0 ? count - 1 : active - 1;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return undefined;
  }
}
