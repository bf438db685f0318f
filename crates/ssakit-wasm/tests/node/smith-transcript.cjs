// The transcripts of a wasm-smith module and its rewritings under node,
// for the modules wasmi misruns (tests/wasmi_diff.rs, `WASMI_MISRUNS`):
// every exported function in export order, called with the
// differential's three argument vectors (support/engine.rs,
// `argument_vectors`), each call's results or error, then every global
// JavaScript can read, each table's length and a hash of each memory.
//
// The modules run side by side, each in its own worker thread, one call
// at a time in all of them. node has no fuel, so where the differential
// skips a call that runs out of fuel on either side, this skips a call
// that has not returned in one second in some module, or that overflows
// node's stack in some module (the modules' frames differ, so they may
// overflow at different depths): the line says so in every transcript,
// and every module is instantiated again for the calls after it.
//
// Usage: node smith-transcript.cjs PARAMS MODULE.wasm...
// PARAMS: per exported function, in export order, its parameter types
// (JSON: a list of lists of `i32`, `i64`, `f32`, `f64`, `v128`, `ref`).
// Prints each module's transcript after a line `== MODULE.wasm`.
'use strict';
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');
const fs = require('fs');
const crypto = require('crypto');

const LIMIT_MS = 1000;

function show(v) {
  if (typeof v === 'bigint') return v.toString() + 'n';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (Array.isArray(v)) return '[' + v.map(show).join(', ') + ']';
  if (v === null) return 'null';
  if (v === undefined) return '()';
  return typeof v;
}

// The differential's argument of parameter `i` of type `t` in vector
// `kind`; `undefined` for v128, which JavaScript cannot pass.
function arg(t, i, kind) {
  switch (t) {
    case 'i32': return kind === 0 ? 0 : kind === 1 ? i + 1 : (i % 2 === 0 ? -2147483648 : -1);
    case 'i64': return kind === 0 ? 0n : kind === 1 ? BigInt(i + 2) : (i % 2 === 0 ? 9223372036854775807n : -9223372036854775808n);
    case 'f32': return kind === 0 ? 0 : kind === 1 ? 1.5 + i : -Infinity;
    case 'f64': return kind === 0 ? 0 : kind === 1 ? -2.25 + i : Number.MAX_VALUE;
    case 'v128': return undefined;
    default: return null;
  }
}

// The worker: instantiates its module, answers each call with a line.
function worker() {
  const mod = new WebAssembly.Module(fs.readFileSync(workerData.file));
  const items = WebAssembly.Module.exports(mod);
  const functions = items.filter((e) => e.kind === 'function');
  function state(inst) {
    const parts = [];
    for (const e of items) {
      const x = inst.exports[e.name];
      if (e.kind === 'global') {
        let v;
        try { v = show(x.value); } catch (err) { v = '?'; }
        parts.push(v);
      } else if (e.kind === 'table') {
        parts.push('table ' + x.length);
      } else if (e.kind === 'memory') {
        const h = crypto.createHash('sha256').update(Buffer.from(x.buffer)).digest('hex');
        parts.push('memory ' + h.slice(0, 16));
      }
    }
    return parts.join(' | ');
  }
  let inst;
  try {
    inst = new WebAssembly.Instance(mod, {});
    parentPort.postMessage({ line: 'start: ' + state(inst) });
  } catch (e) {
    parentPort.postMessage({ line: 'instantiate: ' + e.constructor.name + ': ' + e.message, dead: true });
    return;
  }
  parentPort.on('message', ({ call }) => {
    const e = functions[Math.floor(call / 3)];
    const kind = call % 3;
    const types = workerData.params[Math.floor(call / 3)];
    if (types.includes('v128')) {
      parentPort.postMessage({ line: 'not called (a v128 parameter)' });
      return;
    }
    try {
      const r = inst.exports[e.name](...types.map((t, i) => arg(t, i, kind)));
      parentPort.postMessage({ line: 'returns ' + show(r) + ' ; ' + state(inst) });
    } catch (err) {
      if (err instanceof RangeError && /call stack/.test(err.message)) {
        parentPort.postMessage({ skip: 'overflows the stack' });
      } else {
        parentPort.postMessage({ line: 'throws ' + err.constructor.name + ': ' + err.message + ' ; ' + state(inst) });
      }
    }
  });
}

// One answer of worker `w`, or `null` after LIMIT_MS.
function answer(w) {
  return new Promise((resolve) => {
    const done = (m) => {
      clearTimeout(timer);
      w.off('message', done);
      w.off('error', failed);
      resolve(m);
    };
    const failed = (e) => done({ line: 'worker error: ' + e.message, dead: true });
    const timer = setTimeout(() => done(null), LIMIT_MS);
    w.on('message', done);
    w.on('error', failed);
  });
}

async function main() {
  const params = JSON.parse(process.argv[2]);
  const files = process.argv.slice(3);
  const out = files.map(() => []);
  const calls = params.length * 3;
  let workers = [];
  async function start() {
    for (const w of workers) await w.terminate();
    workers = files.map((file) => new Worker(__filename, { workerData: { file, params } }));
    return Promise.all(workers.map(answer));
  }
  let first = await start();
  first.forEach((m, k) => out[k].push(m === null ? 'instantiate: does not finish' : m.line));
  let dead = first.some((m) => m === null || m.dead);
  for (let call = 0; call < calls && !dead; call++) {
    const name = JSON.stringify(Math.floor(call / 3)) + ' vector ' + (call % 3) + ': ';
    for (const w of workers) w.postMessage({ call });
    const answers = await Promise.all(workers.map(answer));
    const why = answers.some((m) => m === null)
      ? 'skipped: does not return in ' + LIMIT_MS + ' ms in some module'
      : answers.some((m) => m.skip)
        ? 'skipped: overflows the stack in some module'
        : null;
    if (why === null) {
      answers.forEach((m, k) => out[k].push('export ' + name + m.line));
      continue;
    }
    out.forEach((t) => t.push('export ' + name + why));
    const again = await start();
    dead = again.some((m) => m === null || m.dead);
  }
  for (const w of workers) await w.terminate();
  files.forEach((f, k) => console.log('== ' + f + '\n' + out[k].join('\n')));
}

if (isMainThread) {
  main().catch((e) => { console.error(e); process.exit(1); });
} else {
  worker();
}
