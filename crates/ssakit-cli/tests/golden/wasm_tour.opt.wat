(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i64)))
  (memory (;0;) 1)
  (export "sum" (func $sum))
  (export "classify" (func $classify))
  (func $sum (;0;) (type 0) (param i32) (result i32)
    (local i32 i32)
    loop ;; label = @1
      local.get 1
      local.get 0
      i32.ge_s
      if ;; label = @2
        local.get 2
        return
      end
      local.get 2
      local.get 1
      i32.add
      local.set 2
      local.get 1
      i32.const 1
      i32.add
      local.set 1
      br 0 (;@1;)
    end
    unreachable
  )
  (func $classify (;1;) (type 0) (param i32) (result i32)
    block ;; label = @1
      block ;; label = @2
        block ;; label = @3
          block ;; label = @4
            local.get 0
            br_table 3 (;@1;) 1 (;@3;) 0 (;@4;) 2 (;@2;)
          end
          i32.const 12
          return
        end
        i32.const 11
        return
      end
      local.get 0
      if (result i32) ;; label = @2
        i32.const 21
      else
        i32.const 20
      end
      return
    end
    i32.const 10
  )
  (func $pick (;2;) (type 1) (param i32 i32) (result i64)
    (local i64)
    local.get 0
    if (result i64) ;; label = @1
      local.get 1
      i64.load
    else
      local.get 1
      call $sum
      i64.extend_i32_u
    end
  )
)
