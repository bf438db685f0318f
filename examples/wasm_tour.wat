;; A small module for `ssakit wasm lift`: a loop over locals, a block with
;; a result, a br_table, an if with a result, a call and a load.
(module
  (memory 1)
  (func $sum (export "sum") (param $n i32) (result i32)
    (local $i i32) (local $s i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $s (i32.add (local.get $s) (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $s))
  (func $classify (export "classify") (param $k i32) (result i32)
    (block $other
      (block $two
        (block $one
          (block $zero
            (br_table $zero $one $two $other (local.get $k)))
          (return (i32.const 10)))
        (return (i32.const 11)))
      (return (i32.const 12)))
    ;; a block with a result, reached by a br_if carrying it and by its end
    (block $r (result i32)
      (br_if $r (i32.const 20) (i32.eqz (local.get $k)))
      (drop)
      (i32.const 21)))
  (func $pick (param $c i32) (param $p i32) (result i64)
    (local $x f64)
    (if (result i64) (local.get $c)
      (then (i64.load (local.get $p)))
      (else (i64.extend_i32_u (call $sum (local.get $p)))))))
