// The vscode-oniguruma workload (crates/ssakit-wasm/tests/node.rs): the
// package in the directory given as the first argument compiles a few
// regular expressions and prints every match over a text.
'use strict';
const fs = require('fs');
const path = require('path');
const dir = path.resolve(process.argv[2]);
const onig = require(path.join(dir, 'release/main.js'));

async function main() {
  await onig.loadWASM(fs.readFileSync(path.join(dir, 'release/onig.wasm')));
  const scanner = onig.createOnigScanner([
    '\\b(function|return|const|let)\\b',
    '"(?:[^"\\\\]|\\\\.)*"',
    '(?<num>\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?)',
    '(?i)PHI\\s*\\(',
    '\\p{Greek}+',
    '(\\w+)\\s*=\\s*\\1',
  ]);
  const line = 'const x = phi(a1, "b\\"2") ; let y = y ; return 3.5e-2 + 42 // αβγ Phi (';
  const text = [];
  for (let i = 0; i < 40; i++) text.push(line.replace(/\d/g, (d) => String((+d + i) % 10)));
  const s = onig.createOnigString(text.join('\n'));
  let pos = 0;
  let n = 0;
  while (true) {
    const m = scanner.findNextMatchSync(s, pos);
    if (!m) break;
    console.log(m.index, m.captureIndices.map((c) => `${c.start}-${c.end}`).join(' '));
    pos = Math.max(m.captureIndices[0].end, pos + 1);
    n++;
  }
  console.log('matches', n);
  s.dispose();
  scanner.dispose();
}
main().catch((e) => { console.error(e); process.exit(1); });
