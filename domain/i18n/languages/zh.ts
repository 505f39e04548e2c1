import { catalogueOf, type CatalogueFiles } from "../merge";

/** The catalogue of `zh`, a module of its own so that the browser loads only its page's language (domain/i18n/load.ts). */
export default catalogueOf(import.meta.glob<CatalogueFiles[string]>("../locales/zh/*.json", { eager: true }));
