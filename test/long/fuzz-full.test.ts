// The fuzz tests of test/fuzz.test.ts at full size (issue 25): `npm test`
// runs a fifth of each property's cases, this file all of them (6,000 HTML
// documents, 10,000 URLs, ...), with the same seed (FUZZ_SEED).
process.env.FC_FUZZ_FULL = '1';
await import('../fuzz.test.ts');
