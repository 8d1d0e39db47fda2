;; PNG row filters for opaque RGBA pixels: each row becomes its filter byte and width × 3 filtered
;; RGB bytes (alpha dropped), as png-writer.ts deflates them. WebAssembly SIMD, four pixels at a
;; time; integer arithmetic only, so the bytes are the same on every platform.
;;
;; Built by scripts/build-png-kernel.ts into png-filter-wasm.ts (tests/scripts check that the
;; checked-in bytes are what this file builds to). Memory is the caller's: it lays out the rows
;; and keeps 16 bytes of slack after every output, because a group of four pixels is stored as
;; 16 bytes of which 12 count.
(module
  (memory (export "memory") 1)

  ;; One byte's filtered value (the caller stores its low 8 bits).
  (func $scalar (param $f i32) (param $x i32) (param $a i32) (param $b i32) (param $c i32)
    (result i32)
    (local $pa i32) (local $pb i32) (local $pc i32) (local $p i32)
    (block $paeth
      (block $up
        (block $sub
          (block $none
            (br_table $none $sub $up $paeth $paeth (local.get $f)))
          (return (local.get $x)))
        (return (i32.sub (local.get $x) (local.get $a))))
      (return (i32.sub (local.get $x) (local.get $b))))
    (local.set $p (i32.sub (i32.add (local.get $a) (local.get $b)) (local.get $c)))
    (local.set $pa (i32.sub (local.get $p) (local.get $a)))
    (local.set $pb (i32.sub (local.get $p) (local.get $b)))
    (local.set $pc (i32.sub (local.get $p) (local.get $c)))
    ;; Absolute values without branches: (v ^ (v >> 31)) - (v >> 31).
    (local.set $pa (i32.sub (i32.xor (local.get $pa) (i32.shr_s (local.get $pa) (i32.const 31)))
      (i32.shr_s (local.get $pa) (i32.const 31))))
    (local.set $pb (i32.sub (i32.xor (local.get $pb) (i32.shr_s (local.get $pb) (i32.const 31)))
      (i32.shr_s (local.get $pb) (i32.const 31))))
    (local.set $pc (i32.sub (i32.xor (local.get $pc) (i32.shr_s (local.get $pc) (i32.const 31)))
      (i32.shr_s (local.get $pc) (i32.const 31))))
    (if (result i32)
      (i32.and (i32.le_u (local.get $pa) (local.get $pb)) (i32.le_u (local.get $pa) (local.get $pc)))
      (then (i32.sub (local.get $x) (local.get $a)))
      (else
        (if (result i32) (i32.le_u (local.get $pb) (local.get $pc))
          (then (i32.sub (local.get $x) (local.get $b)))
          (else (i32.sub (local.get $x) (local.get $c)))))))

  ;; Pixel $p of a row, one byte at a time: the row's first pixel (no left neighbour) and the
  ;; pixels after the last whole group of four.
  (func $pixel (param $f i32) (param $src i32) (param $above i32) (param $dst i32) (param $p i32)
    (local $k i32) (local $s i32) (local $u i32) (local $o i32) (local $first i32)
    (local.set $s (i32.add (local.get $src) (i32.shl (local.get $p) (i32.const 2))))
    (local.set $u (i32.add (local.get $above) (i32.shl (local.get $p) (i32.const 2))))
    (local.set $o (i32.add (local.get $dst) (i32.mul (local.get $p) (i32.const 3))))
    (local.set $first (i32.eqz (local.get $p)))
    (loop $channel
      (i32.store8
        (i32.add (local.get $o) (local.get $k))
        (call $scalar
          (local.get $f)
          (i32.load8_u (i32.add (local.get $s) (local.get $k)))
          (if (result i32) (local.get $first) (then (i32.const 0))
            (else (i32.load8_u (i32.sub (i32.add (local.get $s) (local.get $k)) (i32.const 4)))))
          (i32.load8_u (i32.add (local.get $u) (local.get $k)))
          (if (result i32) (local.get $first) (then (i32.const 0))
            (else (i32.load8_u (i32.sub (i32.add (local.get $u) (local.get $k)) (i32.const 4)))))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $channel (i32.lt_u (local.get $k) (i32.const 3)))))

  ;; Pixels [1, 1 + 4 × $groups) of a row, four at a time, with filter $f. Written without calls
  ;; (the shuffle and Paeth's predictor inline): calls cost as much as the arithmetic here.
  (func $groups (param $f i32) (param $src i32) (param $above i32) (param $dst i32)
    (param $groups i32)
    (local $s i32) (local $u i32) (local $o i32) (local $end i32)
    (local $v v128) (local $x v128) (local $a v128) (local $b v128) (local $c v128)
    (local $al v128) (local $bl v128) (local $cl v128) (local $ah v128) (local $bh v128)
    (local $ch v128) (local $bc v128) (local $ac v128) (local $pa v128) (local $pb v128)
    (local $pc v128) (local $lo v128)
    (if (i32.eqz (local.get $groups)) (then (return)))
    (local.set $s (i32.add (local.get $src) (i32.const 4)))
    (local.set $u (i32.add (local.get $above) (i32.const 4)))
    (local.set $o (i32.add (local.get $dst) (i32.const 3)))
    (local.set $end (i32.add (local.get $s) (i32.shl (local.get $groups) (i32.const 4))))
    (block $paeth
      (block $up
        (block $sub
          (block $none
            (br_table $none $sub $up $paeth $paeth (local.get $f)))
          (loop $l
            (local.set $v (v128.load (local.get $s)))
            (v128.store (local.get $o) (i8x16.shuffle 0 1 2 4 5 6 8 9 10 12 13 14 0 0 0 0 (local.get $v) (local.get $v)))
            (local.set $s (i32.add (local.get $s) (i32.const 16)))
            (local.set $o (i32.add (local.get $o) (i32.const 12)))
            (br_if $l (i32.lt_u (local.get $s) (local.get $end))))
          (return))
        (loop $l
          (local.set $v (i8x16.sub (v128.load (local.get $s))
            (v128.load (i32.sub (local.get $s) (i32.const 4)))))
          (v128.store (local.get $o) (i8x16.shuffle 0 1 2 4 5 6 8 9 10 12 13 14 0 0 0 0 (local.get $v) (local.get $v)))
          (local.set $s (i32.add (local.get $s) (i32.const 16)))
          (local.set $o (i32.add (local.get $o) (i32.const 12)))
          (br_if $l (i32.lt_u (local.get $s) (local.get $end))))
        (return))
      (loop $l
        (local.set $v (i8x16.sub (v128.load (local.get $s)) (v128.load (local.get $u))))
        (v128.store (local.get $o) (i8x16.shuffle 0 1 2 4 5 6 8 9 10 12 13 14 0 0 0 0 (local.get $v) (local.get $v)))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (local.set $u (i32.add (local.get $u) (i32.const 16)))
        (local.set $o (i32.add (local.get $o) (i32.const 12)))
        (br_if $l (i32.lt_u (local.get $s) (local.get $end))))
      (return))
    (loop $l
      (local.set $x (v128.load (local.get $s)))
      (local.set $a (v128.load (i32.sub (local.get $s) (i32.const 4))))
      (local.set $b (v128.load (local.get $u)))
      (local.set $c (v128.load (i32.sub (local.get $u) (i32.const 4))))
      (local.set $al (i16x8.extend_low_i8x16_u (local.get $a)))
      (local.set $bl (i16x8.extend_low_i8x16_u (local.get $b)))
      (local.set $cl (i16x8.extend_low_i8x16_u (local.get $c)))
      (local.set $bc (i16x8.sub (local.get $bl) (local.get $cl)))
      (local.set $ac (i16x8.sub (local.get $al) (local.get $cl)))
      (local.set $pa (i16x8.abs (local.get $bc)))
      (local.set $pb (i16x8.abs (local.get $ac)))
      (local.set $pc (i16x8.abs (i16x8.add (local.get $bc) (local.get $ac))))
      ;; pa ≤ pb and pa ≤ pc → a; else pb ≤ pc → b; else c (the order PNG specifies).
      (local.set $v
        (v128.bitselect
          (local.get $al)
          (v128.bitselect (local.get $bl) (local.get $cl)
            (i16x8.le_s (local.get $pb) (local.get $pc)))
          (v128.and
            (i16x8.le_s (local.get $pa) (local.get $pb))
            (i16x8.le_s (local.get $pa) (local.get $pc)))))
      (local.set $lo (local.get $v))
      (local.set $ah (i16x8.extend_high_i8x16_u (local.get $a)))
      (local.set $bh (i16x8.extend_high_i8x16_u (local.get $b)))
      (local.set $ch (i16x8.extend_high_i8x16_u (local.get $c)))
      (local.set $bc (i16x8.sub (local.get $bh) (local.get $ch)))
      (local.set $ac (i16x8.sub (local.get $ah) (local.get $ch)))
      (local.set $pa (i16x8.abs (local.get $bc)))
      (local.set $pb (i16x8.abs (local.get $ac)))
      (local.set $pc (i16x8.abs (i16x8.add (local.get $bc) (local.get $ac))))
      ;; pa ≤ pb and pa ≤ pc → a; else pb ≤ pc → b; else c (the order PNG specifies).
      (local.set $v
        (v128.bitselect
          (local.get $ah)
          (v128.bitselect (local.get $bh) (local.get $ch)
            (i16x8.le_s (local.get $pb) (local.get $pc)))
          (v128.and
            (i16x8.le_s (local.get $pa) (local.get $pb))
            (i16x8.le_s (local.get $pa) (local.get $pc)))))
      (local.set $v (i8x16.sub (local.get $x) (i8x16.narrow_i16x8_u (local.get $lo) (local.get $v))))
      (v128.store (local.get $o) (i8x16.shuffle 0 1 2 4 5 6 8 9 10 12 13 14 0 0 0 0 (local.get $v) (local.get $v)))
      (local.set $s (i32.add (local.get $s) (i32.const 16)))
      (local.set $u (i32.add (local.get $u) (i32.const 16)))
      (local.set $o (i32.add (local.get $o) (i32.const 12)))
      (br_if $l (i32.lt_u (local.get $s) (local.get $end)))))

  ;; Filters $rows rows of $width RGBA pixels at $src (one after another) with filter $f (0 None,
  ;; 1 Sub, 2 Up, 4 Paeth) into $dst. The row above the first is at $above: a row of zeros for an
  ;; image's first row, which makes Up None and Paeth Sub there, as PNG defines them.
  (func (export "filterRows") (param $src i32) (param $above i32) (param $dst i32)
    (param $width i32) (param $rows i32) (param $f i32)
    (local $stride i32) (local $rowBytes i32) (local $groups i32) (local $p i32) (local $r i32)
    (if (i32.eqz (i32.mul (local.get $width) (local.get $rows))) (then (return)))
    (local.set $stride (i32.shl (local.get $width) (i32.const 2)))
    (local.set $rowBytes (i32.add (i32.mul (local.get $width) (i32.const 3)) (i32.const 1)))
    (local.set $groups (i32.shr_u (i32.sub (local.get $width) (i32.const 1)) (i32.const 2)))
    (loop $row
      (i32.store8 (local.get $dst) (local.get $f))
      (call $pixel (local.get $f) (local.get $src) (local.get $above)
        (i32.add (local.get $dst) (i32.const 1)) (i32.const 0))
      (call $groups (local.get $f) (local.get $src) (local.get $above)
        (i32.add (local.get $dst) (i32.const 1)) (local.get $groups))
      (local.set $p (i32.add (i32.shl (local.get $groups) (i32.const 2)) (i32.const 1)))
      (block $done
        (loop $tail
          (br_if $done (i32.ge_u (local.get $p) (local.get $width)))
          (call $pixel (local.get $f) (local.get $src) (local.get $above)
            (i32.add (local.get $dst) (i32.const 1)) (local.get $p))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $tail)))
      (local.set $above (local.get $src))
      (local.set $src (i32.add (local.get $src) (local.get $stride)))
      (local.set $dst (i32.add (local.get $dst) (local.get $rowBytes)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br_if $row (i32.lt_u (local.get $r) (local.get $rows)))))
)
