/** Enough for the funnels, pages and accounts a busy process serves; past it the memory starts over. */
const MAX_ROWS = 5000;

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
    const key = JSON.stringify(row);
    const known = seen.get(key);
    if (known !== undefined) return known;
    const converted = convert(row);
    if (seen.size >= max) seen.clear();
    seen.set(key, converted);
    return converted;
  };
}
