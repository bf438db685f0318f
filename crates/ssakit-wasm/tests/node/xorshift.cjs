// The workloads' inputs (hash-wasm.js, as-sha256.js): a 32-bit xorshift
// generator from a fixed seed, so every run hashes the same bytes.
'use strict';
module.exports = function xorshift(seed) {
  function next() {
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed;
  }
  // `n` random bytes.
  return function random(n) {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = next() & 0xff;
    return b;
  };
};
