/**
 * The install's certificate set: time to generate it from nothing (3 etcd members: every CA,
 * leaf and key pair), median of 5 runs. Nothing is printed from the set itself.
 */
import { certSetCounts, generateCertSet } from '../install/certs/index.js';
import { figure, median, ms } from './util.js';

const RUNS = 5;
const MEMBERS = 3;

/**
 * Generates the full certificate set {@link RUNS} times and prints one figure line: the median
 * time against the 1 s target, with the number of certificates and keys.
 */
export async function benchCertSet(): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await generateCertSet({ namespace: 'elotl', apiserverAddress: { ip: '203.0.113.10' }, etcdMembers: MEMBERS });
    times.push(performance.now() - t0);
  }
  const m = median(times);
  const { certificates, keys } = certSetCounts(MEMBERS);
  figure('certs', `full certificate set (${certificates} certificates, ${keys} keys) generated in ${ms(m)}`, '≤ 1 s', m <= 1000);
}
