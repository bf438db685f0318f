// The brotli-wasm workload (crates/ssakit-wasm/tests/node.rs): the package
// in the directory given as the first argument compresses and decompresses
// a few MB of varied data (text, random, repetitive, mixed) at several
// qualities, and prints the sizes and a hash of every output.
'use strict';
const path = require('path');
const crypto = require('crypto');
const brotli = require(path.join(path.resolve(process.argv[2]), 'index.node.js'));

let seed = 0x1234567;
function next() {
  // xorshift32: deterministic bytes
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed;
}
const words = ['el', 'ssa', 'forma', 'bloque', 'phi', 'dominador', 'variable', 'copia',
  'interferencia', 'vida', 'de', 'la', 'que', 'un', 'WebAssembly', 'brotli', '13.8'];
function text(n) {
  const out = [];
  let len = 0;
  while (len < n) {
    const w = words[next() % words.length] + ((next() % 11) === 0 ? '.\n' : ' ');
    out.push(w);
    len += w.length;
  }
  return Buffer.from(out.join('')).subarray(0, n);
}
function random(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = next() & 0xff;
  return b;
}
function repetitive(n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = 'abcabcabd'.charCodeAt(i % 9) + ((i >> 12) & 1);
  return b;
}
const inputs = [
  ['text', text(1 << 20)],
  ['random', random(512 << 10)],
  ['repetitive', repetitive(1 << 20)],
  ['mixed', Buffer.concat([text(256 << 10), random(64 << 10), repetitive(256 << 10)])],
  ['empty', Buffer.alloc(0)],
];
const hash = (b) => crypto.createHash('sha256').update(b).digest('hex').slice(0, 16);
for (const [name, data] of inputs) {
  for (const quality of [1, 5, 9]) {
    const c = Buffer.from(brotli.compress(data, { quality }));
    const d = Buffer.from(brotli.decompress(c));
    console.log(name, data.length, 'q' + quality, c.length, hash(c), d.equals(data) ? 'round-trips' : 'DIFFERS');
  }
}
