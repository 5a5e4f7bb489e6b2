import { describe, expect, it } from 'vitest';
import { greetingName, personalise } from './greeting';

describe('greeting the lead (visitor-behaviour §2.4)', () => {
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

  it('never puts the name inside a tag, where a hostile name could become a link or a handler', () => {
    const hostile = 'javascript:alert(1)';
    expect(personalise('<a href="{name}">Hola {name}</a>', hostile)).toBe(
      '<a href="{name}">Hola javascript:alert(1)</a>',
    );
    expect(personalise('<img src="{name}" alt="{name}" />{name}', 'x" onerror="alert(1)')).toBe(
      '<img src="{name}" alt="{name}" />x&quot; onerror=&quot;alert(1)',
    );
    expect(personalise('<span style="color:{name}">{name}</span>', 'red;background:url(x)')).toBe(
      '<span style="color:{name}">red;background:url(x)</span>',
    );
    // What the sanitiser writes inside an attribute is an entity, so the tag still ends at its `>`.
    expect(personalise('<a title="a &gt; b {name}">{name}</a>', 'Ana')).toBe(
      '<a title="a &gt; b {name}">Ana</a>',
    );
  });
});
