// The esbuild-wasm workload (crates/ssakit-wasm/tests/node.rs): the
// package in the directory given as the first argument bundles and
// minifies a small multi-file JS project written into the scratch
// directory given as the second, and prints the output's size and hash.
// (esbuild-wasm 0.28.2 under node 20 aborts when its standard output is
// redirected to a file: the bundle goes to --outfile.)
'use strict';
const path = require('path');
const fs = require('fs');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const pkg = path.resolve(process.argv[2]);
const dir = path.resolve(process.argv[3]);

const files = {
  'src/main.js': `import { Graph } from './graph.js';
import { dominators } from './dom.js';
import * as fmt from './fmt.js';
const g = new Graph(8);
for (const [a, b] of [[0,1],[1,2],[1,3],[2,4],[3,4],[4,5],[5,1],[5,6],[6,7]]) g.edge(a, b);
const idom = dominators(g, 0);
console.log(fmt.table(idom.map((d, v) => [v, d])));
export const answer = idom.reduce((s, d) => s + d, 0);
`,
  'src/graph.js': `export class Graph {
  constructor(n) { this.succ = Array.from({ length: n }, () => []); this.pred = Array.from({ length: n }, () => []); }
  edge(a, b) { this.succ[a].push(b); this.pred[b].push(a); }
  get size() { return this.succ.length; }
}
export function postorder(g, entry) {
  const seen = new Uint8Array(g.size), out = [], stack = [[entry, 0]];
  seen[entry] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [v, i] = top;
    if (i < g.succ[v].length) { top[1]++; const w = g.succ[v][i]; if (!seen[w]) { seen[w] = 1; stack.push([w, 0]); } }
    else { out.push(v); stack.pop(); }
  }
  return out;
}
export const unused = () => 'tree-shaken away';
`,
  'src/dom.js': `import { postorder } from './graph.js';
// Cooper, Harvey and Kennedy's iterative dominators.
export function dominators(g, entry) {
  const po = postorder(g, entry), num = new Array(g.size).fill(-1);
  po.forEach((v, i) => { num[v] = i; });
  const idom = new Array(g.size).fill(-1);
  idom[entry] = entry;
  const intersect = (a, b) => { while (a !== b) { while (num[a] < num[b]) a = idom[a]; while (num[b] < num[a]) b = idom[b]; } return a; };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = po.length - 2; i >= 0; i--) {
      const v = po[i];
      let d = -1;
      for (const p of g.pred[v]) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (idom[v] !== d) { idom[v] = d; changed = true; }
    }
  }
  return idom;
}
`,
  'src/fmt.js': `export const pad = (s, n) => String(s).padStart(n, ' ');
export function table(rows) {
  return rows.map(([a, b]) => \`\${pad(a, 3)} -> \${pad(b, 3)}\`).join('\\n');
}
export default { pad, table };
`,
};
for (const [name, text] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
}
const outfile = path.join(dir, 'out.js');
for (const format of ['iife', 'esm', 'cjs']) {
  execFileSync(process.execPath, [path.join(pkg, 'bin', 'esbuild'), path.join(dir, 'src/main.js'),
    '--bundle', '--minify', '--format=' + format, '--target=es2017', '--outfile=' + outfile, '--log-level=warning'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  const out = fs.readFileSync(outfile);
  console.log(format, out.length, crypto.createHash('sha256').update(out).digest('hex').slice(0, 16));
}
// The bundle runs.
console.log(execFileSync(process.execPath, [outfile]).toString().trim());
