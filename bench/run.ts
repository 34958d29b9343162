import { parseArgs } from 'node:util';
import { runListLatencyBench } from './list-latency.bench';
import { printTable, type BenchRow } from './stats';

/** `npm run bench [-- --only name]`: every benchmark, or one, printed as tables. */
const benches: Record<string, { title: string; run: () => Promise<BenchRow[]> }> = {
  list: { title: 'Demand record list latency (limit 1000, HTTP, default data set)', run: runListLatencyBench },
};

const { values } = parseArgs({ options: { only: { type: 'string' } } });
if (values.only && !benches[values.only]) {
  console.error(`Unknown benchmark "${values.only}"; choose one of: ${Object.keys(benches).join(', ')}`);
  process.exit(1);
}
for (const [name, bench] of Object.entries(benches)) {
  if (values.only && values.only !== name) continue;
  printTable(bench.title, await bench.run());
}
