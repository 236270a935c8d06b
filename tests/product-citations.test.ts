/**
 * The repository explains itself. Every citation `docs/product.md §N` (or `§N.M`, or `§Glossary`)
 * in a tracked file names a heading of docs/product.md; every `docs/<name>.md §Title` of the other
 * docs names a heading of that document; every document a tracked file names is in the repository;
 * and no tracked file points outside the repository (the team folder beside a checkout, which a
 * clone lacks) or cites an issue number instead of stating the rule. A citation run such as
 * `docs/product.md §2.3, §4.1 and §9` checks each of its sections. (The screen map of
 * docs/architecture.md has its own test: tests/docs-screen-map.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** This file names the patterns it looks for; package-lock.json holds other projects' text. */
const EXCLUDED = new Set(['tests/product-citations.test.ts', 'package-lock.json']);

type TextFile = { path: string; text: string };

/** The files git tracks, as text; binaries and files gone from the working tree are left out. */
function trackedTextFiles(): TextFile[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listed
    .split('\0')
    .filter((path) => path !== '' && !EXCLUDED.has(path))
    .flatMap((path) => {
      const full = join(ROOT, path);
      try {
        if (!statSync(full).isFile()) return [];
      } catch {
        return []; // moved or deleted in the working tree, not yet in the index
      }
      const bytes = readFileSync(full);
      return bytes.includes(0) ? [] : [{ path, text: bytes.toString('utf8') }];
    });
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The headings of a markdown document, without their #s. */
function headings(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,6} +(.+?) *$/gm)].map((match) => match[1]);
}

/**
 * Every section cited after `doc`: `{ at, section }` with `section` the text from just after a `§`
 * to the end of its citation run. A run starts at `<doc> §` and ends at a blank line, `;`, `)`, a
 * sentence's end, the end of a comment, or another document's name (`docs/product.md §2,
 * docs/gbis.md §Quota` gives product.md only `2`). A run may wrap onto the next line of a comment:
 * the line break and the comment's leader (` * `, `//`, `#`) read as one space.
 */
function citedSections(file: TextFile, doc: string): { at: string; section: string }[] {
  const found: { at: string; section: string }[] = [];
  const start = new RegExp(`${doc.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} §`, 'g');
  for (const match of file.text.matchAll(start)) {
    const from = (match.index ?? 0) + match[0].length - 1;
    const rest = file.text.slice(from);
    const end = rest.search(/\n\s*\n|;|\)|\*\/|\.\s|\.$|[\w-]+\.md\b|\bADR\b|\bREADME\b/);
    const run = end === -1 ? rest : rest.slice(0, end);
    for (const part of run.matchAll(/§/g)) {
      const index = from + (part.index ?? 0);
      found.push({
        at: `${file.path}:${lineOf(file.text, index)}`,
        section: file.text.slice(index + 1, from + run.length).replace(/\s*\n\s*(?:\*(?!\/)|\/\/+|#+)?\s*/g, ' '),
      });
    }
  }
  return found;
}

/** Whether `cited` (the text after `§`) starts with one of `titles`, as a whole word or phrase. */
function namesHeading(cited: string, titles: string[]): boolean {
  return titles.some((title) => cited.startsWith(title) && !/^[\p{L}\p{N}]/u.test(cited.slice(title.length)));
}

const files = trackedTextFiles();
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('docs/product.md', () => {
  const product = read('docs/product.md');
  const numbers = new Set(
    headings(product).flatMap((heading) => {
      const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(heading)?.[1];
      return number ? [number] : [];
    }),
  );

  it('keeps the section numbers and titles the code cites', () => {
    const top = headings(product).filter((heading) => /^\d+\. /.test(heading));
    expect(top).toEqual([
      '1. What the product does and for whom',
      '2. Screens and routes',
      '3. Entities and their fields',
      '4. States and transitions',
      '5. Validation rules',
      '6. Roles and permissions',
      '7. The calls it makes',
      '8. Error catalogue',
      '9. Business constants and limits',
      '10. Where we depart from the reference product, on purpose',
      '11. Beyond the reference',
    ]);
  });

  /** The headings without a number (the glossary), cited by their title. */
  const titled = headings(product).filter((heading) => !/^\d/.test(heading));

  it('has a heading for every section a tracked file cites as docs/product.md §N or §Title', () => {
    const cited = files.flatMap((file) => citedSections(file, 'docs/product.md'));
    const broken = cited.flatMap(({ at, section }) => {
      // `§N` and `§N.M` are this kind of citation written out as a pattern, not a citation.
      if (/^N\b/.test(section) || namesHeading(section, titled)) return [];
      const number = /^\d+(?:\.\d+)*(?!\.?\d)/.exec(section)?.[0];
      if (number === undefined) return [`${at}: §${section.trim()} (not a section number)`];
      return numbers.has(number) ? [] : [`${at}: §${number} (no such heading)`];
    });
    expect(cited.length).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});

describe.each(['docs/gbis.md', 'docs/predictions.md', 'docs/architecture.md', 'docs/deploy.md'])('%s', (doc) => {
  it('has the heading every `§Title` citation of it names', () => {
    const titles = headings(read(doc)).flatMap((heading) => {
      const short = heading.replace(/\s*\([^)]*\)$/, '');
      return short === heading ? [heading] : [heading, short];
    });
    const broken = files
      .flatMap((file) => citedSections(file, doc))
      .filter(({ section }) => !namesHeading(section, titles))
      .map(({ at, section }) => `${at}: §${section.trim()}`);
    expect(broken).toEqual([]);
  });
});

describe('tracked files', () => {
  /** Each line of a tracked file that matches `pattern`, as "path:line: text". */
  const linesMatching = (pattern: RegExp) =>
    files.flatMap(({ path, text }) =>
      text.split('\n').flatMap((line, index) => (pattern.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );

  it('point at nothing outside the repository', () => {
    expect(linesMatching(/\.\.\/shared\/|\/work\/shared/)).toEqual([]);
  });

  it('state their rules instead of citing an issue number', () => {
    expect(linesMatching(/\bissues? #?\d+/i)).toEqual([]);
  });

  it('name only documents the repository has', () => {
    const documents = new Set(files.map(({ path }) => path));
    const missing = files.flatMap(({ path, text }) =>
      [...text.matchAll(/(?<![\w./-])((?:docs\/(?:decisions\/)?)?[\w-]+\.md)\b/g)].flatMap((match) => {
        const named = match[1];
        const candidates = [named, `docs/${named}`, `docs/decisions/${named}`];
        return candidates.some((candidate) => documents.has(candidate)) || /^(CHANGELOG|LICENSE)/.test(named)
          ? []
          : [`${path}:${lineOf(text, match.index ?? 0)}: ${named}`];
      }),
    );
    expect(missing).toEqual([]);
  });
});
