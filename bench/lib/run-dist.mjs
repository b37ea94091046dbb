// Runs the compiled CLI (dist/cli.js, made by `npm run build`) the way
// bin/focuscrawl runs it in an installed package, for benchmarks that
// measure what users of the package run rather than the tsx checkout.
import { main } from '../../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
