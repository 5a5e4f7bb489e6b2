/** Enough for the funnels, pages and accounts a busy process serves; past it the memory starts over. */
const MAX_ROWS = 5000;

/**
 * Every value of the row in order, each string prefixed by its length and every other value by its
 * type, so that two different rows never share a key. Cheaper than JSON.stringify, which escapes
 * every quote of the stored JSON.
 */
function rowKey(row: object): string {
  let key = '';
  for (const value of Object.values(row) as unknown[]) {
    key += typeof value === 'string' ? `s${value.length}:${value}` : `${typeof value}:${String(value)};`;
  }
  return key;
}

/**
 * Remembers what a pure conversion (parsing stored JSON through its schema) made of each distinct
 * row, so a row read again unchanged is not parsed again. The whole row is the key: a row that changed
 * in any way is converted anew. The results are shared between requests: never mutate them.
 */
export function memoByRow<Row extends object, Out>(
  convert: (row: Row) => Out,
  max = MAX_ROWS,
): (row: Row) => Out {
  const seen = new Map<string, Out>();
  return (row) => {
    const key = rowKey(row);
    const known = seen.get(key);
    if (known !== undefined) return known;
    const converted = convert(row);
    if (seen.size >= max) seen.clear();
    seen.set(key, converted);
    return converted;
  };
}
