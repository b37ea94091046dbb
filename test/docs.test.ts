// docs/algorithms.md (issue 26 item 4). What broke: code comments, help
// texts, tests and docs cited the source papers as "seed 000" … "seed 004"
// and ../shared/seeds/ALGORITHMS.md, files outside the repository that a
// user's clone does not have. They now cite sections of docs/algorithms.md;
// this test keeps every cited anchor pointing at a heading that exists and
// keeps the old names from coming back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers/cli.ts';

const ALGORITHMS = 'docs/algorithms.md';
/** Where references live: the repository's own text, not node_modules or data. */
const SCANNED = ['src', 'test', 'bench', 'docs', 'fixtures', 'README.md', 'RESULTS.md', 'BENCHMARKS.md', 'RELIABILITY.md'];
const TEXT = /\.(ts|mts|mjs|js|md)$/;

/** GitHub's heading anchor: lower case, punctuation dropped, each space a '-'; repeats get -1, -2, ... */
function githubAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line)) fence = !fence;
    const m = fence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m === null) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Old out-of-repo references: "seed 003", "seeds 000–004", "Seed\n * 003", ALGORITHMS.md, shared/seeds. */
const STALE = /\b[Ss]eeds?[\s*/]*00\d|ALGORITHMS\.md|shared\/seeds/g;

function files(): string[] {
  const out: string[] = [];
  for (const entry of SCANNED) {
    const abs = path.join(ROOT, entry);
    if (statSync(abs).isFile()) out.push(entry);
    else for (const f of readdirSync(abs, { recursive: true }) as string[]) if (TEXT.test(f)) out.push(path.join(entry, f));
  }
  // this file spells out what it looks for
  return out.filter((f) => f !== path.join('test', 'docs.test.ts')).sort();
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

test('githubAnchors follows GitHub: lower case, punctuation dropped, spaces to -, repeats numbered', () => {
  const md = '# Algorithms\n## nb-link — Naive Bayes (Han et al., 2010)\n```\n# not a heading\n```\n### Topics on the web\n## Measures\n## Measures\n';
  assert.deepEqual([...githubAnchors(md)], ['algorithms', 'nb-link--naive-bayes-han-et-al-2010', 'topics-on-the-web', 'measures', 'measures-1']);
});

test('the stale-reference pattern catches the old spellings, also across a comment line break', () => {
  const old = ['seed', '003'];
  for (const s of [old.join(' '), `S${old.join(' ').slice(1)}'s`, `seeds ${old[1]}–004`, `(${old[0]}\n * ${old[1]})`, '../shared/seeds/x', 'in ALGORITHMS.md']) {
    assert.ok(s.match(STALE), s);
  }
  assert.equal('seeds file; --seed URL; 2003; seed 3'.match(STALE), null);
});

test('every docs/algorithms.md#anchor cited in the repository is a heading of docs/algorithms.md', () => {
  const anchors = githubAnchors(readFileSync(path.join(ROOT, ALGORITHMS), 'utf8'));
  const missing: string[] = [];
  let cited = 0;
  for (const file of files()) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    // docs/algorithms.md#x, or algorithms.md#x relative to docs/
    for (const m of text.matchAll(/algorithms\.md#([\p{L}\p{N}_-]+)/gu)) {
      cited++;
      if (!anchors.has(m[1]!)) missing.push(`${file}:${lineOf(text, m.index!)}: #${m[1]}`);
    }
    // links inside docs/algorithms.md itself: ](#x)
    if (file === ALGORITHMS) {
      for (const m of text.matchAll(/\]\(#([\p{L}\p{N}_-]+)\)/gu)) {
        cited++;
        if (!anchors.has(m[1]!)) missing.push(`${file}:${lineOf(text, m.index!)}: #${m[1]}`);
      }
    }
  }
  assert.deepEqual(missing, [], `anchors with no heading in ${ALGORITHMS} (headings: ${[...anchors].join(', ')})`);
  assert.ok(cited >= 100, `expected the code to cite ${ALGORITHMS} (found ${cited} citations)`);
});

test('no reference to the out-of-repo seed files is left, except docs/algorithms.md\'s old-name table', () => {
  const stale: string[] = [];
  for (const file of files()) {
    let text = readFileSync(path.join(ROOT, file), 'utf8');
    if (file === ALGORITHMS) {
      // the section "The five papers" may say which paper each old name was
      const start = text.indexOf('\n## The five papers\n');
      const end = text.indexOf('\n## ', start + 1);
      assert.ok(start >= 0 && end > start, `${ALGORITHMS} has a "## The five papers" section`);
      text = text.slice(0, start) + '\n'.repeat(text.slice(start, end).split('\n').length - 1) + text.slice(end);
    }
    for (const m of text.matchAll(STALE)) stale.push(`${file}:${lineOf(text, m.index!)}: ${JSON.stringify(m[0])}`);
  }
  assert.deepEqual(stale, [], `cite a section of ${ALGORITHMS} instead`);
});

// issue 26 item 5. What broke: RESULTS.md and BENCHMARKS.md had grown to
// ~108 KB each of superseded tables and session diaries. They hold the
// current tables only (long ones in docs/results/, history in git).
test('RESULTS.md and BENCHMARKS.md are each at most 20 KB', () => {
  for (const file of ['RESULTS.md', 'BENCHMARKS.md']) {
    const bytes = statSync(path.join(ROOT, file)).size;
    assert.ok(bytes <= 20_480, `${file} is ${bytes} bytes, more than 20,480: move long tables to docs/results/`);
  }
});

// the same issue: a link to a section of RESULTS.md or BENCHMARKS.md must name a heading that exists
test('every RESULTS.md#anchor and BENCHMARKS.md#anchor cited in the repository is a heading there', () => {
  const anchorsOf = new Map(['RESULTS.md', 'BENCHMARKS.md'].map((f) => [f, githubAnchors(readFileSync(path.join(ROOT, f), 'utf8'))]));
  const missing: string[] = [];
  for (const file of files()) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/(RESULTS|BENCHMARKS)\.md#([\p{L}\p{N}_-]+)/gu)) {
      if (!anchorsOf.get(`${m[1]}.md`)!.has(m[2]!)) missing.push(`${file}:${lineOf(text, m.index!)}: ${m[0]}`);
    }
  }
  assert.deepEqual(missing, []);
});

// the same issue: a table moved to docs/results/ must stay reachable from RESULTS.md or BENCHMARKS.md
test('every docs/results/*.md is linked from RESULTS.md or BENCHMARKS.md', () => {
  const linked = ['RESULTS.md', 'BENCHMARKS.md'].map((f) => readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
  const orphans = (readdirSync(path.join(ROOT, 'docs', 'results')) as string[])
    .filter((f) => f.endsWith('.md'))
    .filter((f) => !linked.includes(`docs/results/${f}`));
  assert.deepEqual(orphans, []);
});

// Issue 26 item 5. What broke: README.md had grown to 74 KB of reference text
// that a newcomer had to read through; it is now a landing page and the
// reference lives in docs/. These keep it short and keep every relative link
// of README.md and docs/*.md pointing at a file (and heading) that exists.
const README_MAX_BYTES = 15 * 1024;

test('README.md is a landing page of at most 15 KB', () => {
  const bytes = statSync(path.join(ROOT, 'README.md')).size;
  assert.ok(bytes <= README_MAX_BYTES, `README.md is ${bytes} bytes, over ${README_MAX_BYTES}: move reference text into docs/`);
});

/** Relative Markdown link targets outside code: [text](target) and [text]: target. */
function relativeLinks(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fence = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) return;
    const prose = line.replace(/`[^`]*`/g, '');
    const targets = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
    const ref = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (ref) targets.push(ref[1]!);
    for (const target of targets) if (!/^[a-z][a-z+.-]*:/i.test(target)) out.push({ target, line: i + 1 });
  });
  return out;
}

/** Problems with the relative links of one Markdown file (path relative to ROOT). */
function brokenLinks(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  const problems: string[] = [];
  for (const { target, line } of relativeLinks(text)) {
    const hash = target.indexOf('#');
    const rel = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
    if (rel === '') {
      if (anchor !== null && anchor !== '' && !githubAnchors(text).has(anchor)) problems.push(`${file}:${line}: ${target}: no such heading`);
      continue;
    }
    const abs = path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(rel));
    let stat;
    try {
      stat = statSync(abs);
    } catch {
      problems.push(`${file}:${line}: ${target}: no such file`);
      continue;
    }
    if (anchor !== null && anchor !== '' && stat.isFile() && abs.endsWith('.md') && !githubAnchors(readFileSync(abs, 'utf8')).has(anchor)) {
      problems.push(`${file}:${line}: ${target}: no such heading`);
    }
  }
  return problems;
}

test('relativeLinks finds links in prose, not in code; brokenLinks sees a missing file and a missing heading', () => {
  const md = 'See [a](docs/x.md#y), [b](https://e.org/) and `[c](nope.md)`.\n```\n[d](nope.md)\n```\n[e]: ../f.md\n[g](#here)\n';
  assert.deepEqual(relativeLinks(md), [{ target: 'docs/x.md#y', line: 1 }, { target: '../f.md', line: 5 }, { target: '#here', line: 6 }]);
  const doc = '[a](nope.md) [b](algorithms.md#nope) [c](algorithms.md#best-first) [d](../README.md#quick-start) [e](#top)\n# Top\n';
  assert.deepEqual(brokenLinks('docs/virtual.md', doc), ['docs/virtual.md:1: nope.md: no such file', 'docs/virtual.md:1: algorithms.md#nope: no such heading']);
});

test('every relative link in README.md and docs/*.md points at an existing file and heading', () => {
  const mdFiles = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];
  const problems = mdFiles.flatMap((f) => brokenLinks(f));
  assert.deepEqual(problems, []);
  // the checker is not vacuous: README links into docs/, with anchors
  const readmeLinks = relativeLinks(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  assert.ok(readmeLinks.filter((l) => l.target.startsWith('docs/')).length >= 15, 'README links to the docs');
  assert.ok(readmeLinks.some((l) => l.target.includes('.md#')), 'README links to a heading');
});
