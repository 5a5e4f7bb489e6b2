/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC starts the sequences that clear
 * a screen or retitle a window), DEL, C1 controls (U+009B is a one-byte CSI), and the bidirectional
 * overrides and isolates that make text read differently from its bytes.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** What JSON.stringify leaves raw inside strings: DEL, C1 and the bidi controls. */
const RAW_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const escapeCode = (c: string): string => {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
};

/**
 * A line of CLI output with every such character shown as an escape (`\x1b`, `\u{202e}`), so that a
 * lead or account name cannot drive the operator's terminal. Line breaks inside are escaped too:
 * one value stays on one line.
 */
export function printable(line: string): string {
  return line.replace(UNPRINTABLE, escapeCode);
}

/**
 * JSON output with the same characters escaped as `\uXXXX`. JSON.stringify escapes C0 but writes
 * DEL, C1 and the bidi controls raw; inside a JSON string the escape reads back as the same value.
 */
export function printableJson(json: string): string {
  // The C0 controls left in JSON.stringify's output are its own line breaks, outside any string.
  return json.replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
