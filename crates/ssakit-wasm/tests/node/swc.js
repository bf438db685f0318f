// The @swc/wasm workload (crates/ssakit-wasm/tests/node.rs): the package in
// the directory given as the first argument transforms a TypeScript
// program to ES5, minifies it, and parses it, and prints the code and a
// hash of the syntax tree.
'use strict';
const path = require('path');
const crypto = require('crypto');
const swc = require(path.join(path.resolve(process.argv[2]), 'wasm.js'));

const source = `
interface Block { name: string; preds: Block[]; phis: Map<string, string[]> }
enum Kind { Copy = 1, Phi, Branch }
export class Dominators<T extends Block> {
  private idom = new Map<T, T | undefined>();
  constructor(readonly blocks: T[]) {}
  compute(): Map<T, T | undefined> {
    let changed = true;
    const order = [...this.blocks].reverse();
    while (changed) {
      changed = false;
      for (const b of order) {
        const preds = b.preds.filter((p) => this.idom.has(p as T)) as T[];
        const next = preds.reduce<T | undefined>((a, p) => (a ? this.meet(a, p) : p), undefined);
        if (this.idom.get(b) !== next) { this.idom.set(b, next); changed = true; }
      }
    }
    return this.idom;
  }
  private meet(a: T, b: T): T { return a.name < b.name ? a : b; }
}
export const kinds = Object.entries(Kind).map(([k, v]) => \`\${k}=\${v}\`).join(",");
export async function* walk(bs: Block[]) { for (const b of bs) { yield b?.name ?? "?"; } }
`;
const hash = (s) => crypto.createHash('sha256').update(s).digest('hex').slice(0, 16);
const es5 = swc.transformSync(source, {
  jsc: { parser: { syntax: 'typescript' }, target: 'es5' },
  isModule: true,
});
console.log(es5.code);
const min = swc.minifySync(es5.code, { compress: true, mangle: true, module: true });
console.log(min.code);
const ast = swc.parseSync(source, { syntax: 'typescript', target: 'es2022' });
console.log('ast', ast.body.length, hash(JSON.stringify(ast)));
try {
  swc.transformSync('let = = 1;', { jsc: { parser: { syntax: 'ecmascript' } } });
  console.log('no error');
} catch (e) {
  console.log('error', String(e).split('\n')[0]);
}
