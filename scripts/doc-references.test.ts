import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every section a source file or a doc cites resolves to a heading in docs/ (docs/conventions.md,
 * "What a comment may cite"). Reads files only: it starts no process and no server.
 *
 * - A section reference is a section sign followed by a number, as in `visitor-behaviour §4.3` or
 *   `architecture §5.9`. The word right before it names the document; a reference with no name of its
 *   own takes the last one named earlier on its line (`visitor-behaviour §4.3, §5` cites two sections
 *   of visitor-behaviour.md). When a comment wraps right before the section sign, the name is the last
 *   word of the line above. Inside docs/visitor-behaviour.md and docs/architecture.md an unnamed
 *   reference means the page itself. A double sign with a range (`§§3–4`) resolves both ends.
 * - A decision reference (`decision 6`, `decisions 9 and 12`, `docs/decisions/0006-….md`) names a
 *   record that exists in docs/decisions/.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECTION = '\u00a7';

/** The documents a reference may name, and their files. */
const DOCUMENTS = {
  'visitor-behaviour': 'docs/visitor-behaviour.md',
  architecture: 'docs/architecture.md',
} as const;
type DocumentName = keyof typeof DOCUMENTS;

/** Directories never read: installed or built code, history, and third-party test corpora. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.git']);
const SKIPPED_PATHS = new Set(['apps/server/test/xss-corpora']);
/** Source and documentation files: where a comment or a sentence can cite a section. */
const SCANNED_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.md'];
/** This file describes the reference forms; its examples are not references. */
const SELF = relative(ROOT, fileURLToPath(import.meta.url))
  .split(sep)
  .join('/');

interface Reference {
  /** `file:line`, as the failure lists it. */
  where: string;
  /** What the reference cites, as written. */
  text: string;
}
interface Unresolved extends Reference {
  why: string;
}

function repositoryFiles(directory = ROOT): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    const fromRoot = relative(ROOT, path).split(sep).join('/');
    if (entry.isDirectory()) {
      if (SKIPPED_DIRECTORIES.has(entry.name) || SKIPPED_PATHS.has(fromRoot)) continue;
      files.push(...repositoryFiles(path));
    } else if (entry.isFile() && SCANNED_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) {
      if (fromRoot !== SELF) files.push(fromRoot);
    }
  }
  return files.sort();
}

/** The section numbers of a document: every heading that starts with a section sign and a number. */
function headingsOf(file: string): Set<string> {
  const headings = new Set<string>();
  const heading = new RegExp(`^#{1,6}\\s+${SECTION}(\\d+(?:\\.\\d+)*)(?=\\s|$)`);
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    const match = heading.exec(line);
    if (match?.[1] !== undefined) headings.add(match[1]);
  }
  return headings;
}

const SECTIONS = Object.fromEntries(
  Object.entries(DOCUMENTS).map(([name, file]) => [name, headingsOf(file)]),
) as Record<DocumentName, Set<string>>;

function isDocumentName(word: string): word is DocumentName {
  return Object.hasOwn(DOCUMENTS, word);
}

/** The section sign, a second one for a range, a number, and the range's other end. */
const SECTION_REFERENCE = new RegExp(
  `(${SECTION}{1,2})(\\d+(?:\\.\\d+)*)(?:\\s*[–-]\\s*${SECTION}?(\\d+(?:\\.\\d+)*))?`,
  'g',
);
/** Words that join a reference to the one before it (`§4.3 to §4.7`), so it keeps that document. */
const LINKING_WORDS = new Set(['and', 'or', 'to', 'of', 'see', 'also', 'through']);
/** A line that is only a comment's margin up to the reference: `  // `, ` * `, or nothing. */
const COMMENT_START = /^\s*(?:\/\/+|\/?\*+|#+)?\s*$/;
/** The word right before a reference: the document it names, if it names one. */
const WORD_BEFORE = /([A-Za-z][\w.-]*)\s*$/;

function sectionReferences(file: string, text: string) {
  const found: Reference[] = [];
  const unresolved: Unresolved[] = [];
  const ownDocument = (Object.keys(DOCUMENTS) as DocumentName[]).find((name) => DOCUMENTS[name] === file);
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (ownDocument !== undefined && /^#{1,6}\s/.test(line)) return; // a heading defines, it does not cite
    let named: DocumentName | undefined;
    for (const match of line.matchAll(SECTION_REFERENCE)) {
      const [whole, signs = '', first = '', last] = match;
      const where = `${file}:${index + 1}`;
      const before = line.slice(0, match.index);
      // A comment wrapped between the document's name and its section: the name ends the line above.
      const wrapped = COMMENT_START.test(before) ? (lines[index - 1] ?? '') : before;
      const word = WORD_BEFORE.exec(wrapped)?.[1];
      let document: DocumentName | undefined;
      if (word !== undefined && isDocumentName(word)) {
        document = word;
        named = word;
      } else if (word === undefined || LINKING_WORDS.has(word.toLowerCase())) {
        document = named ?? ownDocument;
      }
      const written =
        word !== undefined && !LINKING_WORDS.has(word.toLowerCase()) ? `${word} ${whole}` : whole;
      found.push({ where, text: written });
      if (word !== undefined && document === undefined && !LINKING_WORDS.has(word.toLowerCase())) {
        unresolved.push({ where, text: written, why: `"${word}" is not a document in docs/` });
        continue;
      }
      if (document === undefined) {
        unresolved.push({
          where,
          text: word !== undefined ? `${word} ${whole}` : whole,
          why: `names no document: write ${Object.keys(DOCUMENTS)
            .map((name) => `"${name} ${SECTION}…"`)
            .join(' or ')}`,
        });
        continue;
      }
      const ends = signs.length === 2 && last !== undefined ? [first, last] : [first];
      for (const number of ends) {
        if (!SECTIONS[document].has(number)) {
          unresolved.push({
            where,
            text: written,
            why: `${DOCUMENTS[document]} has no heading ${SECTION}${number}`,
          });
        }
      }
    }
  });
  return { found, unresolved };
}

const DECISIONS = readdirSync(join(ROOT, 'docs/decisions')).filter((name) => /^\d{4}-.*\.md$/.test(name));
const DECISION_NUMBERS = new Set(DECISIONS.map((name) => Number(name.slice(0, 4))));

/** `decision 6`, `decision 0006`, `decisions 9 and 12`, `decision record 4`. */
const DECISION_WORDS = /\b[Dd]ecisions?(?: records?)? (\d{1,4})(?:(?:, | and | or )(\d{1,4}))*/g;
/** A path to a record: `decisions/0006-tracking-group-commit.md`. */
const DECISION_PATH = /decisions\/(\d{4}-[\w-]+\.md)/g;

function decisionReferences(file: string, text: string) {
  const found: Reference[] = [];
  const unresolved: Unresolved[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const match of line.matchAll(DECISION_WORDS)) {
      for (const number of match[0].match(/\d{1,4}/g) ?? []) {
        found.push({ where, text: match[0] });
        if (!DECISION_NUMBERS.has(Number(number))) {
          unresolved.push({ where, text: match[0], why: `docs/decisions/ has no record ${number}` });
        }
      }
    }
    for (const match of line.matchAll(DECISION_PATH)) {
      found.push({ where, text: match[0] });
      if (!DECISIONS.includes(match[1] ?? '')) {
        unresolved.push({ where, text: match[0], why: 'no such file in docs/decisions/' });
      }
    }
  });
  return { found, unresolved };
}

function scan(read: (file: string, text: string) => { found: Reference[]; unresolved: Unresolved[] }) {
  const found: Reference[] = [];
  const unresolved: Unresolved[] = [];
  for (const file of repositoryFiles()) {
    const result = read(file, readFileSync(join(ROOT, file), 'utf8'));
    found.push(...result.found);
    unresolved.push(...result.unresolved);
  }
  return { found, unresolved };
}

function listed(unresolved: Unresolved[]): string {
  return unresolved.map((u) => `${u.where}: "${u.text}" (${u.why})`).join('\n');
}

describe('references to docs/ resolve', () => {
  it('each document a reference may name has numbered headings', () => {
    for (const [name, file] of Object.entries(DOCUMENTS)) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
      expect(
        SECTIONS[name as DocumentName].size,
        `${file} has no "## ${SECTION}N …" headings`,
      ).toBeGreaterThan(0);
    }
  });

  it('every section a file cites is a heading of the document it names', () => {
    const { found, unresolved } = scan(sectionReferences);
    expect(found.length).toBeGreaterThan(0);
    expect(
      listed(unresolved),
      `${unresolved.length} of ${found.length} section references do not resolve`,
    ).toBe('');
  });

  it('every decision record a file cites exists', () => {
    const { found, unresolved } = scan(decisionReferences);
    expect(found.length).toBeGreaterThan(0);
    expect(
      listed(unresolved),
      `${unresolved.length} of ${found.length} decision references do not resolve`,
    ).toBe('');
  });
});

describe('the reference reader', () => {
  const read = (text: string, file = 'example.ts') => sectionReferences(file, text);

  it('takes the document from the word before, and carries it along the line', () => {
    const { found, unresolved } = read(
      `// visitor-behaviour ${SECTION}4.3, ${SECTION}5; architecture ${SECTION}5.9`,
    );
    expect(found).toHaveLength(3);
    expect(unresolved).toEqual([]);
  });

  it('refuses a reference that names no document, or one that is not in the repository', () => {
    expect(read(`// ${SECTION}2.2 step 3`).unresolved).toHaveLength(1);
    expect(read(`// spec ${SECTION}2.2`).unresolved).toHaveLength(1);
    expect(read(`// visitor-behaviour ${SECTION}42`).unresolved[0]?.why).toContain('no heading');
  });

  it('finds the name at the end of the line above when a comment wraps before the section', () => {
    expect(read(`// not in preview, visitor-behaviour\n// ${SECTION}4.1), so`).unresolved).toEqual([]);
    expect(read(`// not in preview, spec\n// ${SECTION}4.1), so`).unresolved).toHaveLength(1);
  });

  it('resolves both ends of a range', () => {
    expect(read(`visitor-behaviour ${SECTION}${SECTION}3–4`).unresolved).toEqual([]);
    expect(read(`visitor-behaviour ${SECTION}${SECTION}3–42`).unresolved).toHaveLength(1);
  });

  it('reads an unnamed reference inside a document as one to the document itself', () => {
    expect(read(`See ${SECTION}4.2.`, DOCUMENTS['visitor-behaviour']).unresolved).toEqual([]);
    expect(read(`See ${SECTION}5.13.`, DOCUMENTS.architecture).unresolved).toEqual([]);
  });
});
