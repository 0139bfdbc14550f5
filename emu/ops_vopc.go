package emu

// VOPC: comparisons write a lane mask to VCC (e32) or an SGPR pair (e64);
// v_cmpx_* also write EXEC (GFX9 writes both).

var fcmpPreds = map[string]func(a, b float64) bool{
	"f":   func(a, b float64) bool { return false },
	"lt":  func(a, b float64) bool { return a < b },
	"eq":  func(a, b float64) bool { return a == b },
	"le":  func(a, b float64) bool { return a <= b },
	"gt":  func(a, b float64) bool { return a > b },
	"lg":  func(a, b float64) bool { return a < b || a > b },
	"ge":  func(a, b float64) bool { return a >= b },
	"o":   func(a, b float64) bool { return a == a && b == b },
	"u":   func(a, b float64) bool { return a != a || b != b },
	"nge": func(a, b float64) bool { return !(a >= b) },
	"nlg": func(a, b float64) bool { return !(a < b || a > b) },
	"ngt": func(a, b float64) bool { return !(a > b) },
	"nle": func(a, b float64) bool { return !(a <= b) },
	"neq": func(a, b float64) bool { return !(a == b) },
	"nlt": func(a, b float64) bool { return !(a < b) },
	"tru": func(a, b float64) bool { return true },
}

var icmpPreds = map[string]func(c int) bool{ // c = -1, 0, 1 comparison result
	"f":  func(c int) bool { return false },
	"lt": func(c int) bool { return c < 0 },
	"eq": func(c int) bool { return c == 0 },
	"le": func(c int) bool { return c <= 0 },
	"gt": func(c int) bool { return c > 0 },
	"ne": func(c int) bool { return c != 0 },
	"ge": func(c int) bool { return c >= 0 },
	"t":  func(c int) bool { return true },
}

func cmp3[T int64 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func init() {
	for name, p := range fcmpPreds {
		p := p
		for _, x := range []bool{false, true} {
			x := x
			pre := "v_cmp_"
			if x {
				pre = "v_cmpx_"
			}
			defV(pre+name+"_f32", "ff", func(w *wave, o *op) {
				cmpF32(w, o, x, func(a, b float32) bool { return p(float64(a), float64(b)) })
			})
			defV(pre+name+"_f64", "FF", func(w *wave, o *op) { cmpF64(w, o, x, p) })
			defV(pre+name+"_f16", "hh", func(w *wave, o *op) { cmpF16(w, o, x, p) })
		}
	}
	for name, p := range icmpPreds {
		p := p
		for _, x := range []bool{false, true} {
			x := x
			pre := "v_cmp_"
			if x {
				pre = "v_cmpx_"
			}
			defV(pre+name+"_i32", "ii", func(w *wave, o *op) {
				cmpU32(w, o, x, func(a, b uint32) bool { return p(cmp3(int64(int32(a)), int64(int32(b)))) })
			})
			defV(pre+name+"_u32", "ii", func(w *wave, o *op) {
				cmpU32(w, o, x, func(a, b uint32) bool { return p(cmp3(uint64(a), uint64(b))) })
			})
			defV(pre+name+"_i16", "ss", func(w *wave, o *op) {
				cmpU16(w, o, x, func(a, b uint32) bool { return p(cmp3(int64(int16(a)), int64(int16(b)))) })
			})
			defV(pre+name+"_u16", "ss", func(w *wave, o *op) {
				cmpU16(w, o, x, func(a, b uint32) bool { return p(cmp3(uint64(a), uint64(b))) })
			})
			defV(pre+name+"_i64", "II", func(w *wave, o *op) {
				cmpU64(w, o, x, func(a, b uint64) bool { return p(cmp3(int64(a), int64(b))) })
			})
			defV(pre+name+"_u64", "II", func(w *wave, o *op) {
				cmpU64(w, o, x, func(a, b uint64) bool { return p(cmp3(a, b)) })
			})
		}
	}
	for _, x := range []bool{false, true} {
		x := x
		pre := "v_cmp_"
		if x {
			pre = "v_cmpx_"
		}
		defV(pre+"class_f32", "fi", func(w *wave, o *op) {
			a := w.fsrc32(o, 0)
			b := w.vsrc(&o.src[1], &w.tmp[1])
			runCmp(w, o, func(l int) bool { return class32(a[l], b[l]) }, x)
		})
		defV(pre+"class_f64", "Fi", func(w *wave, o *op) {
			lo, hi := w.fsrc64(o, 0)
			b := w.vsrc(&o.src[1], &w.tmp[1])
			runCmp(w, o, func(l int) bool { return class64(uint64(lo[l])|uint64(hi[l])<<32, b[l]) }, x)
		})
		defV(pre+"class_f16", "hi", func(w *wave, o *op) {
			a := w.fsrc16(o, 0, true)
			b := w.vsrc(&o.src[1], &w.tmp[1])
			runCmp(w, o, func(l int) bool { return class16(uint16(a[l]), b[l]) }, x)
		})
	}
}
