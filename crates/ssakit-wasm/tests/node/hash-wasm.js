// The hash-wasm workload (crates/ssakit-wasm/tests/node.rs): the package in
// the directory given as the first argument (its 22 modules read from
// ssakit-wasm/, see scripts/wasm-corpus-unembed.py) hashes inputs of
// several sizes with every algorithm and prints the digests.
'use strict';
const path = require('path');
const hw = require(path.resolve(process.argv[2]));

const random = require('./xorshift.cjs')(0x2468ace);
const inputs = [new Uint8Array(0), random(3), random(64), random(1000), random(100000)];
const salt = random(16);
async function main() {
  const plain = ['adler32', 'crc32', 'md4', 'md5', 'sha1', 'sha224', 'sha256', 'sha384',
    'sha512', 'ripemd160', 'whirlpool', 'sm3', 'xxhash32', 'xxhash64', 'xxhash3', 'xxhash128',
    'blake2b', 'blake2s', 'blake3', 'keccak', 'sha3'];
  for (const name of plain) {
    for (const data of inputs) console.log(name, data.length, await hw[name](data));
  }
  console.log('crc64', await hw.crc64(inputs[3]));
  console.log('crc32c', await hw.crc32(inputs[3], 0x82f63b78));
  console.log('blake3-key', await hw.blake3(inputs[2], 256, random(32)));
  const sha = await hw.createSHA256();
  for (const data of inputs) sha.update(data);
  console.log('sha256-stream', sha.digest('hex'));
  const key = 'ssakit';
  console.log('hmac', await (await hw.createHMAC(hw.createSHA1(), key)).update(inputs[3]).digest());
  console.log('pbkdf2', await hw.pbkdf2({ password: 'phi', salt, iterations: 50, hashLength: 32,
    hashFunction: hw.createSHA512(), outputType: 'hex' }));
  console.log('scrypt', await hw.scrypt({ password: 'phi', salt, costFactor: 16, blockSize: 8,
    parallelism: 1, hashLength: 32, outputType: 'hex' }));
  console.log('argon2id', await hw.argon2id({ password: 'phi', salt, parallelism: 1, iterations: 2,
    memorySize: 64, hashLength: 32, outputType: 'hex' }));
  console.log('bcrypt', await hw.bcrypt({ password: 'phi', salt, costFactor: 4, outputType: 'encoded' }));
}
main().catch((e) => { console.error(e); process.exit(1); });
