// Bulk user creation through Users_PostMassUser, and `.filter` latency at 10,000 and 100,000 users.
import { api, percentile } from './server.mjs';

const BATCH = 500;

function userBatch(start, count) {
  return Array.from({ length: count }, (_, i) => {
    const n = start + i;
    return {
      userName: `user${String(n).padStart(6, '0')}`,
      email: `user${n}@bench.example`,
      displayName: `Bench User ${n}`,
      groups: n % 10 === 0 ? ['Staff'] : [],
      claims: [{ type: 'locale', value: n % 2 ? 'nl' : 'en' }],
    };
  });
}

export async function createUsers(server, from, to) {
  const call = api(server);
  const started = performance.now();
  for (let n = from; n < to; n += BATCH) await call('POST', '/users/.batch', userBatch(n, Math.min(BATCH, to - n)));
  const seconds = (performance.now() - started) / 1000;
  return (to - from) / seconds;
}

/** The same filters at every size, each matching a handful of users. */
const filters = [
  'userName eq "user004321"',
  'userName sw "user00012"',
  'email eq "user3333@bench.example"',
  'displayName sw "Bench User 777"',
  'displayName co "User 4321"',
  'claims[type eq "locale" and value eq "nl"] and userName sw "user0001"',
  'groups eq "Staff" and userName sw "user0002"',
  'active eq true and email ew "@bench.example" and userName sw "user00099"',
];

export async function filterLatency(server, rounds = 20) {
  const out = {};
  for (const filter of filters) {
    const times = [];
    const query = `/users/.filter?filter=${encodeURIComponent(filter)}&pageSize=50`;
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/rest/v2${query}`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${filter}: ${res.status}`);
      times.push(performance.now() - started);
    }
    out[filter] = percentile(times, 50);
  }
  return out;
}
