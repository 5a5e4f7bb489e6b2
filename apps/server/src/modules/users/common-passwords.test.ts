import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords';

describe('common passwords', () => {
  it('refuses the listed ones whatever their case, and one character repeated', () => {
    for (const password of ['qwertyuiop', 'Password123', 'PASSWORD123', '1234567890', 'q1w2e3r4t5'])
      expect(isCommonPassword(password), password).toBe(true);
    expect(isCommonPassword('xxxxxxxxxxxx')).toBe(true);
  });

  it("refuses zxcvbn's common passwords too, not only the yearly most-used lists", () => {
    for (const password of ['basketball', 'Manchester', 'terminator', '1qaz2wsx3edc', 'qazwsxedcrfv'])
      expect(isCommonPassword(password), password).toBe(true);
  });

  it('lets an uncommon passphrase through', () => {
    for (const password of ['correct horse battery', 'mi perro se llama Tobi', 'Password1234!x'])
      expect(isCommonPassword(password), password).toBe(false);
  });
});
