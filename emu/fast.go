package emu

import (
	"math"
	"unsafe"
)

// Specialised loops for the hottest VALU instructions: with MODE at its
// usual value (round to nearest, f32 denormals kept) and no output
// modifiers they avoid the generic runners' per-lane indirect calls. The
// results are bit-identical to the generic paths.

// plainF32 reports whether f32 arithmetic may use Go's operators directly.
func plainF32(w *wave, o *op) bool { return w.mode&0x33 == 0x30 && o.omod == 0 && !o.clamp }

func fastF32(w *wave, o *op, generic func(w *wave, o *op), kind int) {
	if !plainF32(w, o) {
		generic(w, o)
		return
	}
	exec := w.exec()
	if exec == ^uint64(0) && kind < 3 && o.src[0].kind != kVGPR && o.src[0].kind != kAGPR && o.src[0].kind != kTmp &&
		o.src[1].kind == kVGPR && o.abs|o.neg == 0 {
		// Scalar first source (the usual VOP2 form): no broadcast.
		sa := f32(w.sread32(&o.src[0]))
		fb, fd := f32Lanes(w.vreg(o.src[1].idx)), f32Lanes(w.vdst(&o.dst))
		switch kind {
		case 0:
			f32AddSV(fd, sa, fb)
		case 1:
			f32MulSV(fd, sa, fb)
		case 2:
			f32SubSV(fd, sa, fb)
		}
		return
	}
	if exec == ^uint64(0) && kind < 3 && o.abs|o.neg == 0 && isVec(o.src[0].kind) && isVec(o.src[1].kind) && isVec(o.dst.kind) {
		// Two per-lane sources without modifiers: no staging.
		fa, fb, fd := f32Lanes(w.lanes(&o.src[0])[:]), f32Lanes(w.lanes(&o.src[1])[:]), f32Lanes(w.lanes(&o.dst)[:])
		switch kind {
		case 0:
			f32AddVV(fd, fa, fb)
		case 1:
			f32MulVV(fd, fa, fb)
		case 2:
			f32SubVV(fd, fa, fb)
		}
		return
	}
	a := w.fsrc32(o, 0)
	b := w.fsrc32(o, 1)
	d := w.vdst(&o.dst)
	a, b, d = a[:64], b[:64], d[:64]
	if exec == ^uint64(0) && kind < 3 {
		fa, fb, fd := f32Lanes(a), f32Lanes(b), f32Lanes(d)
		switch kind {
		case 0:
			f32AddVV(fd, fa, fb)
		case 1:
			f32MulVV(fd, fa, fb)
		case 2:
			f32SubVV(fd, fa, fb)
		}
		return
	}
	switch kind {
	case 0:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = u32(f32(a[l]) + f32(b[l]))
			}
		}
	case 1:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = u32(f32(a[l]) * f32(b[l]))
			}
		}
	case 2:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = u32(f32(a[l]) - f32(b[l]))
			}
		}
	case 3: // fma: c is src[2]
		c := w.fsrc32(o, 2)[:64]
		if exec == ^uint64(0) && haveFMA {
			// The host's FMA is the IEEE operation fma32 computes.
			f32FmaAVX2(f32Lanes(d), f32Lanes(a), f32Lanes(b), f32Lanes(c))
			return
		}
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = u32(fma32(f32(a[l]), f32(b[l]), f32(c[l]), rndNearest))
			}
		}
	}
}

func fastU32(w *wave, o *op, kind int) {
	exec := w.exec()
	a := w.vsrc(&o.src[0], &w.tmp[0])[:64]
	b := w.vsrc(&o.src[1], &w.tmp[1])[:64]
	d := w.vdst(&o.dst)[:64]
	if exec == ^uint64(0) {
		switch kind {
		case 0:
			for l := range d {
				d[l] = a[l] + b[l]
			}
			return
		case 3:
			copy(d, a)
			return
		}
	}
	switch kind {
	case 0:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l] + b[l]
			}
		}
	case 1:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = b[l] << (a[l] & 31)
			}
		}
	case 2:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l] & b[l]
			}
		}
	case 3: // mov
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l]
			}
		}
	case 4:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l] | b[l]
			}
		}
	case 5:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l] ^ b[l]
			}
		}
	case 6:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l] - b[l]
			}
		}
	case 7:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = b[l] >> (a[l] & 31)
			}
		}
	case 8:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = uint32(int32(b[l]) >> (a[l] & 31))
			}
		}
	case 9:
		for l := 0; l < 64; l++ {
			if exec>>l&1 != 0 {
				d[l] = a[l] * b[l]
			}
		}
	}
}

// specialiseHot replaces the hot instructions' semantics with the
// specialised loops; semFor calls it once, after every init has run.
func specialiseHot() {
	specialiseCompares()
	specialise := func(name string, f func(generic func(w *wave, o *op)) func(w *wave, o *op)) {
		s := semantics[name]
		s.fn = f(s.fn)
		semantics[name] = s
	}
	for name, kind := range map[string]int{"v_add_f32": 0, "v_mul_f32": 1, "v_sub_f32": 2, "v_fma_f32": 3, "v_fmac_f32": 3} {
		kind := kind
		specialise(name, func(g func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { fastF32(w, o, g, kind) }
		})
	}
	specialise("v_add_u32", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) {
			if o.clamp {
				g(w, o)
				return
			}
			fastU32(w, o, 0)
		}
	})
	specialise("v_lshlrev_b32", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { fastU32(w, o, 1) }
	})
	for name, kind := range map[string]int{"v_or_b32": 4, "v_xor_b32": 5, "v_lshrrev_b32": 7, "v_ashrrev_i32": 8, "v_mul_lo_u32": 9} {
		kind := kind
		specialise(name, func(g func(w *wave, o *op)) func(w *wave, o *op) {
			return func(w *wave, o *op) { fastU32(w, o, kind) }
		})
	}
	specialise("v_sub_u32", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) {
			if o.clamp {
				g(w, o)
				return
			}
			fastU32(w, o, 6)
		}
	})
	specialise("v_and_b32", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { fastU32(w, o, 2) }
	})
	specialise("v_add_co_u32", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) {
			if o.clamp {
				g(w, o)
				return
			}
			exec := w.exec()
			a := w.vsrc(&o.src[0], &w.tmp[0])[:64]
			b := w.vsrc(&o.src[1], &w.tmp[1])[:64]
			d := w.vdst(&o.dst)[:64]
			var cout uint64
			for l := 0; l < 64; l++ {
				if exec>>l&1 != 0 {
					s := uint64(a[l]) + uint64(b[l])
					d[l] = uint32(s)
					cout |= s >> 32 << l
				}
			}
			w.swrite64(&o.sdst, cout)
		}
	})
	specialise("v_addc_co_u32", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) {
			if o.clamp {
				g(w, o)
				return
			}
			exec := w.exec()
			a := w.vsrc(&o.src[0], &w.tmp[0])[:64]
			b := w.vsrc(&o.src[1], &w.tmp[1])[:64]
			cin := w.sread64(&o.src[2])
			d := w.vdst(&o.dst)[:64]
			var cout uint64
			for l := 0; l < 64; l++ {
				if exec>>l&1 != 0 {
					s := uint64(a[l]) + uint64(b[l]) + cin>>l&1
					d[l] = uint32(s)
					cout |= s >> 32 << l
				}
			}
			w.swrite64(&o.sdst, cout)
		}
	})
	specialise("v_ashrrev_i64", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) {
			exec := w.exec()
			sh := w.vsrc(&o.src[0], &w.tmp[0])[:64]
			lo, hi := w.vsrc64(&o.src[1], &w.tmp[1], &w.tmp[4])
			lo, hi = lo[:64], hi[:64]
			dlo, dhi := w.vdst64(&o.dst)
			dlo, dhi = dlo[:64], dhi[:64]
			for l := 0; l < 64; l++ {
				if exec>>l&1 != 0 {
					r := uint64(int64(uint64(lo[l])|uint64(hi[l])<<32) >> (sh[l] & 63))
					dlo[l], dhi[l] = uint32(r), uint32(r>>32)
				}
			}
		}
	})
	specialise("v_mov_b32", func(g func(w *wave, o *op)) func(w *wave, o *op) {
		return func(w *wave, o *op) { fastU32(w, o, 3) }
	})
	specialiseP()
}

// Comparison predicates as small codes, so the hot compares run one loop
// per predicate instead of an indirect call per lane.
const (
	pLT = iota
	pEQ
	pLE
	pGT
	pNE // "lg" for floats (ordered not-equal), "ne" for integers
	pGE
	pNEQ // float "neq": unordered or not equal
	pNLT
	pNGT
	pNLE
	pNGE
)

var fastFloatPred = map[string]int{"lt": pLT, "eq": pEQ, "le": pLE, "gt": pGT, "lg": pNE, "ge": pGE,
	"neq": pNEQ, "nlt": pNLT, "ngt": pNGT, "nle": pNLE, "nge": pNGE}

var fastIntPred = map[string]int{"lt": pLT, "eq": pEQ, "le": pLE, "gt": pGT, "ne": pNE, "ge": pGE}

// cmpF32Fast compares two f32 sources under predicate p.
func cmpF32Fast(w *wave, o *op, x bool, p int) {
	a := w.fsrc32(o, 0)[:64]
	b := w.fsrc32(o, 1)[:64]
	exec := w.exec()
	if w.mode&0x10 == 0 {
		// Denormal inputs flushed: compare through the generic path.
		cmpF32(w, o, x, func(a, b float32) bool { return floatPred(p, float64(a), float64(b)) })
		return
	}
	var r uint64
	switch p {
	case pLT:
		for l := 0; l < 64; l++ {
			if f32(a[l]) < f32(b[l]) {
				r |= 1 << l
			}
		}
	case pGT:
		for l := 0; l < 64; l++ {
			if f32(a[l]) > f32(b[l]) {
				r |= 1 << l
			}
		}
	case pLE:
		for l := 0; l < 64; l++ {
			if f32(a[l]) <= f32(b[l]) {
				r |= 1 << l
			}
		}
	case pGE:
		for l := 0; l < 64; l++ {
			if f32(a[l]) >= f32(b[l]) {
				r |= 1 << l
			}
		}
	case pEQ:
		for l := 0; l < 64; l++ {
			if f32(a[l]) == f32(b[l]) {
				r |= 1 << l
			}
		}
	default:
		for l := 0; l < 64; l++ {
			if floatPred(p, float64(f32(a[l])), float64(f32(b[l]))) {
				r |= 1 << l
			}
		}
	}
	r &= exec
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

func floatPred(p int, a, b float64) bool {
	switch p {
	case pLT:
		return a < b
	case pEQ:
		return a == b
	case pLE:
		return a <= b
	case pGT:
		return a > b
	case pNE:
		return a < b || a > b
	case pGE:
		return a >= b
	case pNEQ:
		return !(a == b)
	case pNLT:
		return !(a < b)
	case pNGT:
		return !(a > b)
	case pNLE:
		return !(a <= b)
	case pNGE:
		return !(a >= b)
	}
	return false
}

// cmpI32Fast compares 32-bit integers (signed when signed is set).
func cmpI32Fast(w *wave, o *op, x bool, p int, signed bool) {
	a := w.vsrc(&o.src[0], &w.tmp[0])[:64]
	b := w.vsrc(&o.src[1], &w.tmp[1])[:64]
	exec := w.exec()
	var r uint64
	flip := uint32(0)
	if signed {
		flip = 1 << 31 // signed order = unsigned order with the sign bit flipped
	}
	switch p {
	case pLT:
		for l := 0; l < 64; l++ {
			if a[l]^flip < b[l]^flip {
				r |= 1 << l
			}
		}
	case pGT:
		for l := 0; l < 64; l++ {
			if a[l]^flip > b[l]^flip {
				r |= 1 << l
			}
		}
	case pLE:
		for l := 0; l < 64; l++ {
			if a[l]^flip <= b[l]^flip {
				r |= 1 << l
			}
		}
	case pGE:
		for l := 0; l < 64; l++ {
			if a[l]^flip >= b[l]^flip {
				r |= 1 << l
			}
		}
	case pEQ:
		for l := 0; l < 64; l++ {
			if a[l] == b[l] {
				r |= 1 << l
			}
		}
	case pNE:
		for l := 0; l < 64; l++ {
			if a[l] != b[l] {
				r |= 1 << l
			}
		}
	}
	r &= exec
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

// unaryF32Fast runs v_rcp/v_rsq/v_sqrt_f32 without per-lane calls.
func unaryF32Fast(w *wave, o *op, kind int, generic func(w *wave, o *op)) {
	if !plainF32(w, o) {
		generic(w, o)
		return
	}
	exec := w.exec()
	a := w.fsrc32(o, 0)[:64]
	d := w.vdst(&o.dst)[:64]
	if exec == ^uint64(0) {
		unaryF32All(kind, (*[64]uint32)(d), (*[64]uint32)(a))
		return
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		x := float64(f32(a[l]))
		var r float64
		switch kind {
		case 0:
			r = 1 / x
		case 1:
			r = 1 / math.Sqrt(x)
		default:
			r = math.Sqrt(x)
		}
		d[l] = u32(float32(r))
	}
}

func specialiseCompares() {
	for name, p := range fastFloatPred {
		p := p
		for _, x := range []bool{false, true} {
			x := x
			pre := "v_cmp_"
			if x {
				pre = "v_cmpx_"
			}
			if s, ok := semantics[pre+name+"_f32"]; ok {
				s.fn = func(w *wave, o *op) { cmpF32Fast(w, o, x, p) }
				semantics[pre+name+"_f32"] = s
			}
		}
	}
	for name, p := range fastIntPred {
		p := p
		for _, x := range []bool{false, true} {
			x := x
			pre := "v_cmp_"
			if x {
				pre = "v_cmpx_"
			}
			for _, ty := range []string{"_i32", "_u32"} {
				signed := ty == "_i32"
				if s, ok := semantics[pre+name+ty]; ok {
					s.fn = func(w *wave, o *op) { cmpI32Fast(w, o, x, p, signed) }
					semantics[pre+name+ty] = s
				}
			}
		}
	}
	for name, kind := range map[string]int{"v_rcp_f32": 0, "v_rsq_f32": 1, "v_sqrt_f32": 2} {
		kind := kind
		s := semantics[name]
		g := s.fn
		s.fn = func(w *wave, o *op) { unaryF32Fast(w, o, kind, g) }
		semantics[name] = s
	}
}

// asF32 views 64 lanes of register bits as float32 values, so float loops
// load straight into floating-point registers (the same bits either way).
func asF32(s []uint32) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(&s[0])), 64)
}
