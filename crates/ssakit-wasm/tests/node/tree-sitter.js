// The web-tree-sitter workload (crates/ssakit-wasm/tests/node.rs): the
// package in the directory given as the first argument, with the grammar
// of ../tree-sitter-javascript/, parses a JavaScript program, edits it and
// parses again, runs a query, and prints the trees.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = path.resolve(process.argv[2]);
const { Parser, Language, Query } = await import(pathToFileURL(path.join(dir, 'web-tree-sitter.js')).href);
await Parser.init({ locateFile: (name) => path.join(dir, name) });
const js = await Language.load(path.join(dir, '../tree-sitter-javascript/tree-sitter-javascript.wasm'));
const parser = new Parser();
parser.setLanguage(js);
let source = `
function dominators(blocks) {
  const idom = new Map();
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of blocks.slice().reverse()) {
      const next = b.preds.filter((p) => idom.has(p)).reduce((a, p) => (a ? meet(a, p) : p), undefined);
      if (idom.get(b) !== next) { idom.set(b, next); changed = true; }
    }
  }
  return idom;
}
class Phi extends Inst { constructor(args) { super(); this.args = [...args]; } }
const s = \`template \${1 + 2}\`, r = /a+b/g; label: while (x) break label;
`;
let tree = parser.parse(source);
console.log(tree.rootNode.toString());
const at = source.indexOf('return idom');
const added = 'idom.delete(undefined); ';
source = source.slice(0, at) + added + source.slice(at);
tree.edit({
  startIndex: at, oldEndIndex: at, newEndIndex: at + added.length,
  startPosition: { row: 11, column: 2 }, oldEndPosition: { row: 11, column: 2 },
  newEndPosition: { row: 11, column: 2 + added.length },
});
const tree2 = parser.parse(source, tree);
console.log(tree2.rootNode.toString());
const q = new Query(js, '(call_expression function: (member_expression property: (property_identifier) @m))');
for (const c of q.captures(tree2.rootNode)) console.log(c.name, c.node.text, c.node.startPosition.row);
console.log(parser.parse('function (').rootNode.toString());
