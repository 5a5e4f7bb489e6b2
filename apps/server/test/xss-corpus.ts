import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

/**
 * The XSS corpora in ./xss-corpora (see its README for sources and licences), for the sanitiser's
 * tests and the end-to-end tier:
 * payloads only, never DOMPurify's `expected` strings (they assume DOMPurify's own configuration).
 */

export interface Payload {
  readonly name: string;
  readonly html: string;
}

export interface Corpora {
  readonly dompurify: readonly Payload[];
  readonly h5scVectors: readonly Payload[];
  readonly h5scItems: readonly Payload[];
}

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const XSS_DIR = fileURLToPath(new URL('./xss-corpora/', import.meta.url));
/** The corpora's folder as the repository names it, for test titles. */
export const XSS_DIR_IN_REPO = path.relative(REPO_ROOT, XSS_DIR);

const hasOwn = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function excerpt(html: string): string {
  const flat = html.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

/** DOMPurify's test fixtures: `export default [{title?, payload, expected}]`; only `payload` is used. */
async function loadDompurify(): Promise<Payload[]> {
  const file = path.join(XSS_DIR, 'dompurify', 'expect.mjs');
  const module: unknown = await import(/* @vite-ignore */ pathToFileURL(file).href);
  const entries = isRecord(module) ? module.default : undefined;
  if (!Array.isArray(entries)) throw new Error(`${file} has no default-exported array`);
  return entries.map((entry: unknown, index) => {
    if (!isRecord(entry) || typeof entry.payload !== 'string') {
      throw new Error(`${file} entry ${index} has no string payload`);
    }
    const title = typeof entry.title === 'string' ? entry.title : excerpt(entry.payload);
    return { name: `DOMPurify #${index}: ${title}`, html: entry.payload };
  });
}

/** H5SC's rendered vectors: `<div id="N">vector//["'`-->]]>]</div>` blocks after a `>>> vectors()` line. */
function loadH5scVectors(): Payload[] {
  const file = path.join(XSS_DIR, 'h5sc', 'vectors.txt');
  const text = readFileSync(file, 'utf8');
  const block = /<div id="(\d+)">([\s\S]*?)\/\/\["'`-->\]\]>\]<\/div>/g;
  const vectors = [...text.matchAll(block)].map((match) => ({
    id: Number(match[1]),
    block: match[0],
    body: match[2] ?? '',
  }));
  // The split must account for the whole file: only the header and a trailing "undefined" are left over.
  const rest = text.replace(block, '').replace(/\s+/g, '');
  if (rest !== '>>>vectors()undefined') throw new Error(`${file}: unexpected text outside vectors: ${rest}`);
  vectors.forEach((vector, index) => {
    if (vector.id !== index + 1) throw new Error(`${file}: vector ${index + 1} is numbered ${vector.id}`);
  });
  return vectors.map((vector) => ({
    name: `H5SC vector ${vector.id}: ${excerpt(vector.body)}`,
    html: vector.block,
  }));
}

/** Runs a UMD script (items.js, payloads.js) in a sandbox and returns what it puts in module.exports. */
function loadUmd(file: string): unknown {
  const sandbox = { module: { exports: {} as unknown }, exports: {} };
  vm.runInNewContext(readFileSync(file, 'utf8'), sandbox, { filename: file });
  return sandbox.module.exports;
}

/** H5SC's items (all of them, including those missing from vectors.txt) with %placeholders% filled in. */
function loadH5scItems(): Payload[] {
  const itemsFile = path.join(XSS_DIR, 'h5sc', 'items.js');
  const payloadsFile = path.join(XSS_DIR, 'h5sc', 'payloads.js');
  const items = loadUmd(itemsFile);
  const placeholders = loadUmd(payloadsFile);
  if (!Array.isArray(items)) throw new Error(`${itemsFile} does not export an array`);
  if (!isRecord(placeholders)) throw new Error(`${payloadsFile} does not export an object`);
  return items.map((item: unknown, index) => {
    if (!isRecord(item) || typeof item.data !== 'string') {
      throw new Error(`${itemsFile} item ${index} has no string data`);
    }
    const html = item.data.replace(/%([a-z0-9_]+)%/g, (whole, key: string) => {
      const value = hasOwn(placeholders, key) ? placeholders[key] : undefined;
      return typeof value === 'string' ? value : whole;
    });
    const id = typeof item.id === 'number' ? item.id : index + 1;
    return { name: `H5SC item ${id}: ${excerpt(html)}`, html };
  });
}

/** Every corpus, or the reason it cannot be read (a missing corpus must fail the tests, not skip them). */
export async function loadCorpora(): Promise<Corpora | Error> {
  if (!existsSync(XSS_DIR) || !statSync(XSS_DIR).isDirectory()) {
    return new Error(
      `XSS corpus folder not found at ${XSS_DIR} (it ships with the repository: is the checkout complete?)`,
    );
  }
  try {
    return { dompurify: await loadDompurify(), h5scVectors: loadH5scVectors(), h5scItems: loadH5scItems() };
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
