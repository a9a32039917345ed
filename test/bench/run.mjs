// `pnpm bench`: figures against the built server on the embedded database (or DATABASE_URL when set).
import { importBench, startTime } from './cli.mjs';
import { runtimeBench } from './runtime.mjs';
import { api, startBenchServer } from './server.mjs';
import { createUsers, filterLatency } from './users.mjs';

const fmt = (n) => n.toFixed(1);

async function main() {
  const server = await startBenchServer();
  try {
    await api(server)('POST', '/groups', { name: 'Staff' });
    const rate10k = await createUsers(server, 0, 10_000);
    const at10k = await filterLatency(server);
    const rate100k = await createUsers(server, 10_000, 100_000);
    const at100k = await filterLatency(server);
    console.log(
      `Users_PostMassUser: ${Math.round(rate10k)} users/s (first 10,000), ${Math.round(rate100k)} users/s (to 100,000)`,
    );
    console.log('filter p50 (ms)      at 10,000   at 100,000   ratio');
    let worst = 0;
    let worstRatio = 0;
    for (const filter of Object.keys(at10k)) {
      const ratio = at100k[filter] / at10k[filter];
      worst = Math.max(worst, at100k[filter]);
      worstRatio = Math.max(worstRatio, ratio);
      console.log(
        `  ${filter.padEnd(70)} ${fmt(at10k[filter]).padStart(8)} ${fmt(at100k[filter]).padStart(11)} ${fmt(ratio).padStart(7)}`,
      );
    }
    console.log(`worst p50 at 100,000: ${fmt(worst)} ms (target ≤ 50); worst ratio: ${fmt(worstRatio)} (target ≤ 3)`);
  } finally {
    await server.stop();
  }
}

await main();
startTime();
await importBench();
await runtimeBench();
