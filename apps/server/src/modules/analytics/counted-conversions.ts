/**
 * The conversions analytics counts (issue 19): a purchase (OFFERT), a pre-launch sign-up (PRELAUNCH)
 * and a landing's lead sent to the chat (PIXEL_LEAD). VIDEO_VIEWED is stored as a conversion too, but
 * it marks a page complete (lead progress); counted, it would make every lead who finished a video a
 * conversion. The rollups are kept and rebuilt from these only (decision 25).
 */
export const COUNTED_CONVERSION_KINDS: ReadonlySet<string> = new Set(['OFFERT', 'PRELAUNCH', 'PIXEL_LEAD']);

export const countsAsConversion = (conversion: { kind: string }): boolean =>
  COUNTED_CONVERSION_KINDS.has(conversion.kind);
