/** How the bridge spells an account's store id (a string), kept light: the start reads it early. */

/** The store id of an account id as the bridge spells it (a string); undefined when none. */
export function storeId(accountId: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(accountId) ? Number(accountId) : undefined;
}
