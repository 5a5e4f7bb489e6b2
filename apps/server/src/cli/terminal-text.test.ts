import { describe, expect, it } from 'vitest';
import { printable, printableJson } from './terminal-text';

describe('CLI output a name cannot take over', () => {
  it('shows control characters as escapes and leaves ordinary text alone', () => {
    expect(printable('Ana María Ñúñez 李')).toBe('Ana María Ñúñez 李');
    expect(printable('x\u001b[2J\u001b[Hy')).toBe('x\\x1b[2J\\x1b[Hy');
    expect(printable('a\rb\nc\td\u007f\u009b')).toBe('a\\x0db\\x0ac\\x09d\\x7f\\x9b');
    expect(printable('\u202eevil\u2066')).toBe('\\u{202e}evil\\u{2066}');
  });

  it('escapes in JSON what JSON.stringify writes raw, and the value reads back the same', () => {
    const value = { name: 'e\u009b31m\u202ex\u007f', other: 'ok\u001b' };
    const json = printableJson(JSON.stringify(value, null, 2));
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(json).not.toMatch(/[\u001b\u007f-\u009f\u202e]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
