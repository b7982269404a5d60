/** Reads a paged list whole: offset by offset until a page comes back short. */
export async function allPages<T>(
  page: (offset: number, limit: number) => Promise<readonly T[]> | readonly T[],
  limit = 100,
): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += limit) {
    const rows = await page(offset, limit);
    all.push(...rows);
    if (rows.length < limit) return all;
  }
}
