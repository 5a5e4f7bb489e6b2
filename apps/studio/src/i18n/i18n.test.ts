import { describe, expect, it } from 'vitest';
import { chooseLanguage, format } from './i18n';

describe('chooseLanguage', () => {
  it("takes the user's own setting over the browser's", () => {
    expect(chooseLanguage('en', ['pt-BR', 'es'])).toBe('en');
  });

  it("follows the browser's first language the Studio speaks, by its primary subtag", () => {
    expect(chooseLanguage(null, ['pt-BR', 'en-US'])).toBe('pt');
    expect(chooseLanguage(null, ['fr-FR', 'de', 'EN-gb', 'es'])).toBe('en');
    expect(chooseLanguage(undefined, ['es-419'])).toBe('es');
  });

  it('falls back to Spanish when the browser says nothing the Studio speaks', () => {
    expect(chooseLanguage(null, ['fr-FR', 'de-DE'])).toBe('es');
    expect(chooseLanguage(null, [])).toBe('es');
  });
});

describe('format', () => {
  it('fills named values and leaves unknown ones visible', () => {
    expect(format('Necesitas el rol {role} ({role})', { role: 'Propietario' })).toBe(
      'Necesitas el rol Propietario (Propietario)',
    );
    expect(format('Hola {name}', {})).toBe('Hola {name}');
  });
});
