/**
 * CSV for people to open in a spreadsheet (RFC 4180): CRLF between records; a field with a comma,
 * a quote, a CR or an LF is quoted, its quotes doubled. A cell a spreadsheet would read as a formula
 * (one starting with =, +, -, @, a tab or a CR) gets a leading apostrophe, so that a lead named
 * `=HYPERLINK(…)` stays text beside other leads' one-time links (OWASP, "CSV injection").
 * Every CSV Embudo writes goes through here.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export type CsvValue = string | number | null | undefined;

/** One record's line, without its line break. */
export const csvRecord = (cells: readonly CsvValue[]): string => cells.map(csvCell).join(',');

/** A header row and the records, each a list of cells, as one CSV text ending in CRLF. */
export function toCsv(header: readonly string[], records: Iterable<readonly CsvValue[]>): string {
  const lines = [csvRecord(header)];
  for (const record of records) lines.push(csvRecord(record));
  return `${lines.join('\r\n')}\r\n`;
}
