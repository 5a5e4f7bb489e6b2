import type { z } from 'zod';

/** Reads a JSON column through its schema, so a row is never trusted blindly. */
export function readJson<T extends z.ZodType>(schema: T, text: string): z.infer<T> {
  return schema.parse(JSON.parse(text));
}

export const toBool = (value: number | null): boolean => value === 1;
export const fromBool = (value: boolean): number => (value ? 1 : 0);
export const toIso = (ms: number): string => new Date(ms).toISOString();
