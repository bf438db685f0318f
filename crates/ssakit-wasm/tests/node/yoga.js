// The yoga-layout workload (crates/ssakit-wasm/tests/node.rs): the package
// in the directory given as the first argument (its module read from
// ssakit-wasm/yoga.wasm, see scripts/wasm-corpus-unembed.py) lays out a
// flexbox tree in several configurations and prints every node's box.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = path.resolve(process.argv[2]);
const { default: Yoga, Align, FlexDirection, Justify, Wrap, Edge, PositionType } =
  await import(pathToFileURL(path.join(dir, 'dist/src/index.js')).href);

function build(direction, wrap, justify) {
  const root = Yoga.Node.create();
  root.setWidth(500);
  root.setHeight(300);
  root.setFlexDirection(direction);
  root.setFlexWrap(wrap);
  root.setJustifyContent(justify);
  root.setAlignItems(Align.Center);
  root.setPadding(Edge.All, 7);
  for (let i = 0; i < 9; i++) {
    const c = Yoga.Node.create();
    c.setWidth(40 + 13 * i);
    c.setHeight(30 + 7 * (i % 4));
    c.setMargin(Edge.Left, i);
    if (i % 3 === 0) c.setFlexGrow(1);
    if (i % 4 === 1) c.setFlexShrink(2);
    if (i === 5) { c.setPositionType(PositionType.Absolute); c.setPosition(Edge.Top, 11); }
    root.insertChild(c, i);
  }
  return root;
}
for (const direction of [FlexDirection.Row, FlexDirection.Column, FlexDirection.RowReverse]) {
  for (const wrap of [Wrap.NoWrap, Wrap.Wrap]) {
    for (const justify of [Justify.FlexStart, Justify.SpaceBetween, Justify.Center]) {
      const root = build(direction, wrap, justify);
      root.calculateLayout(500, 300);
      const boxes = [];
      for (let i = 0; i < root.getChildCount(); i++) {
        const l = root.getChild(i).getComputedLayout();
        boxes.push(`${l.left},${l.top},${l.width},${l.height}`);
      }
      console.log(direction, wrap, justify, boxes.join(' '));
      root.freeRecursive();
    }
  }
}
