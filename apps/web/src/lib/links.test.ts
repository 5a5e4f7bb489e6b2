import { describe, expect, it } from 'vitest';
import { isoWithOffset, withPreviewToken, withScheme } from './links';

describe('button links (visitor-behaviour §5)', () => {
  it.each([
    ['wa.me/5215512345678', 'https://wa.me/5215512345678'],
    ['checkout.example.com/pay?x=1', 'https://checkout.example.com/pay?x=1'],
    ['  example.com  ', 'https://example.com'],
    ['https://example.com/a', 'https://example.com/a'],
    ['http://example.com/a', 'http://example.com/a'],
    ['mailto:ana@example.com', 'mailto:ana@example.com'],
    ['tel:+5215512345678', 'tel:+5215512345678'],
  ])('%s opens %s', (input, expected) => {
    expect(withScheme(input)).toBe(expected);
  });
});

describe('action timestamps (visitor-behaviour §3: ISO with the timezone offset)', () => {
  it('writes the local time with its offset, which names the same instant', () => {
    const at = new Date('2026-11-22T23:05:07.089Z');
    const text = isoWithOffset(at);
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    expect(new Date(text).getTime()).toBe(at.getTime());
  });
});

describe('preview navigation', () => {
  it('replaces the preview token and keeps the rest of the address', () => {
    expect(withPreviewToken('https://a.example/demo?previewToken=one&page=x', 'two')).toBe(
      'https://a.example/demo?previewToken=two&page=x',
    );
  });
});
