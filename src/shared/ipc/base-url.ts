/**
 * An exchange account's base URL as Betdesk accepts it: http or https, a host, an optional path,
 * no query or fragment. The `NewAccount` schema checks it in main and the account form in the
 * renderer; a plain string here, so the renderer gets it without the schema library.
 */
export const BASE_URL_PATTERN = '^https?://[^\\s/?#]+(/[^\\s?#]*)?$';
