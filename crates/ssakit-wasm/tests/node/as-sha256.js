// The @chainsafe/as-sha256 workload (crates/ssakit-wasm/tests/node.rs): the
// package in the directory given as the first argument, with its SIMD
// module (build/optimized.simd.wasm, see scripts/wasm-corpus-unembed.py),
// hashes inputs of several sizes, pairs of 32-byte chunks, and four
// 64-byte inputs at once (the SIMD path), and prints the digests.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import xorshift from './xorshift.cjs';

const dir = path.resolve(process.argv[2]);
const sha = await import(pathToFileURL(path.join(dir, 'lib/index.js')).href);
if (!sha.simdEnabled) throw new Error('the SIMD module did not load');
const random = xorshift(0x13579bd);
const hex = (b) => Buffer.from(b).toString('hex');
for (const n of [0, 1, 55, 56, 64, 1000, 65536]) console.log('digest', n, hex(sha.digest(random(n))));
console.log('digest64', hex(sha.digest64(random(64))));
console.log('2x32', hex(sha.digest2Bytes32(random(32), random(32))));
for (let round = 0; round < 3; round++) {
  const four = [random(64), random(64), random(64), random(64)];
  console.log('batch4', sha.batchHash4UintArray64s(four).map(hex).join(' '));
}
const h = new sha.SHA256();
h.init();
h.update(random(100));
h.update(random(200));
console.log('stream', hex(h.final()));
