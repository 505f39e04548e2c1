/** The product's name, for pages that belong to no operator yet. */
export const PRODUCT_NAME = "Plugdesk";

/**
 * The browser tab's title: the screen, then whose console it is ("Stations — Plugdesk Polska").
 * React places the element in the document's head, on the server and after every navigation.
 */
export function DocumentTitle({ screen, owner = PRODUCT_NAME }: { screen: string; owner?: string }) {
  return <title>{`${screen} — ${owner}`}</title>;
}
