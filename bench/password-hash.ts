/**
 * Cost of password hashing with the parameters of src/lib/secrets.ts (issue 9, item 5): milliseconds
 * per Argon2id hash and per verify, one at a time, then the logins per second a process sustains
 * when they run side by side on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says
 * otherwise). Run with `npx tsx bench/password-hash.ts [iterations]`.
 */
import { performance } from "node:perf_hooks";
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from "../src/lib/secrets.js";

const ITERATIONS = Number(process.argv[2] ?? 20);
const CONCURRENCY = 8;

async function timeEach(label: string, fn: () => Promise<unknown>): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const p = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(1);
  console.log(`${label.padEnd(8)} mean ${mean.toFixed(1)} ms   min ${samples[0].toFixed(1)}   p50 ${p(0.5)}   p95 ${p(0.95)}   (${ITERATIONS} runs)`);
}

async function main(): Promise<void> {
  const { memoryCost, timeCost, parallelism } = ARGON2_OPTIONS;
  console.log(`Argon2id m=${memoryCost} KiB t=${timeCost} p=${parallelism}`);
  const stored = await hashPassword("warm-up: JIT and the thread pool");
  await timeEach("hash", () => hashPassword("correct horse battery staple"));
  await timeEach("verify", () => verifyPassword(stored, "warm-up: JIT and the thread pool"));
  const start = performance.now();
  await Promise.all(Array.from({ length: ITERATIONS * CONCURRENCY }, () => verifyPassword(stored, "wrong password")));
  const seconds = (performance.now() - start) / 1000;
  console.log(`verify   ${((ITERATIONS * CONCURRENCY) / seconds).toFixed(0)}/s with ${CONCURRENCY} at a time`);
}

await main();
