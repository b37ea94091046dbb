/** The WebKB archive the benches crawl (../shared/corpora/webkb beside the clone), its seeds and the "course" topic. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEBKB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/corpora/webkb');
export const WEBKB_WARC = path.join(WEBKB_DIR, 'webkb.warc.gz');
export const WEBKB_LABELS = path.join(WEBKB_DIR, 'labels.tsv');
/** The three CS department home pages issue 3 names as seeds. */
export const WEBKB_SEEDS = ['http://www.cs.cornell.edu/', 'http://www.cs.utexas.edu/', 'http://www.cs.washington.edu/'];
/** Each of the three universities (the `university` column of labels.tsv): its home page and domain, for one-university crawls. */
export const WEBKB_UNIVERSITIES: Readonly<Record<string, { seed: string; domain: string }>> = {
  cornell: { seed: 'http://www.cs.cornell.edu/', domain: 'cornell.edu' },
  texas: { seed: 'http://www.cs.utexas.edu/', domain: 'utexas.edu' },
  washington: { seed: 'http://www.cs.washington.edu/', domain: 'washington.edu' },
};
/** The term topic the throughput benches crawl with. */
export const WEBKB_COURSE_TOPIC = {
  name: 'course',
  terms: ['course', 'syllabus', 'homework', 'lecture', 'assignments', 'exam', 'instructor', 'office hours', 'prerequisites'],
  threshold: 0.2,
};

/**
 * How the WebKB result benches train their models (bench/webkb-results.ts,
 * bench/webkb-oracle.ts --simulate, bench/webkb-holdout.ts): the defaults of
 * `focuscrawl train --warc`, spelt out so that the benches do not change
 * with them. Chosen on RESULTS.md's leave-one-university-out table.
 */
export const WEBKB_TRAIN_FLAGS = '--feature-group 4 --balanced-links --hub-links';
