import { describe, expect, it } from 'vitest';
import { greetingName, personalise } from './greeting';

describe('greeting the lead (spec §2.4)', () => {
  it.each([
    ['Ana María López', 'Ana'],
    ['  Bruno ', 'Bruno'],
    ['5215512345678', 'Oye'],
    ['+52 55 1234 5678', 'Oye'],
    ['', 'Oye'],
  ])('greets %j as %j', (name, expected) => {
    expect(greetingName(name, 'Oye')).toBe(expected);
  });

  it('fills {name} everywhere, escaped, and leaves other text alone', () => {
    expect(personalise('<strong>{name}</strong>, mira esto, {name}', 'Ana')).toBe(
      '<strong>Ana</strong>, mira esto, Ana',
    );
    expect(personalise('{name}', '<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(personalise('Sin nombre', 'Ana')).toBe('Sin nombre');
  });
});
