;; The extended-const proposal: integer `add`, `sub` and `mul` in constant
;; expressions (here a global's initializer and a data segment's offset,
;; both from an imported global). ssakit validates WebAssembly 2.0, so the
;; module is refused, naming the proposal and the byte offset of the first
;; such operator (the `i32.add` of global 1), exit 1.
(module
  (import "env" "base" (global $base i32))
  (memory 1)
  (global $end i32 (i32.add (global.get $base) (i32.const 64)))
  (data (offset (i32.mul (global.get $base) (i32.const 2))) "ssakit")
  (func (export "end") (result i32)
    global.get $end))
