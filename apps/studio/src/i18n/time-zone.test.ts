import { describe, expect, it } from 'vitest';
import { timeZoneLabel, timeZoneNames } from './time-zone';

describe('time zones in the Studio', () => {
  it('labels a zone with its offset on the day asked', () => {
    expect(timeZoneLabel('America/Sao_Paulo', new Date('2026-11-25T12:00:00Z'))).toBe(
      'America/Sao Paulo (GMT-3)',
    );
    expect(timeZoneLabel('Europe/Madrid', new Date('2026-07-01T12:00:00Z'))).toBe('Europe/Madrid (GMT+2)');
    expect(timeZoneLabel('UTC', new Date('2026-07-01T12:00:00Z'))).toBe('UTC');
  });

  it('offers UTC first, every zone once, and the current one even if unlisted', () => {
    const names = timeZoneNames('America/Bogota');
    expect(names[0]).toBe('UTC');
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('America/Bogota');
    expect(timeZoneNames('Etc/GMT+5')).toContain('Etc/GMT+5');
  });
});
