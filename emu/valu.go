package emu

// VALU runners. Each reads its sources once per instruction (a VGPR's 64
// lanes, or a scalar broadcast), applies input modifiers, loops over the
// active lanes and applies output modifiers. Sources are read before the
// destination lane is written, so a destination may alias a source.

// fsrc32 returns source i with VOP3 abs/neg applied (f32 sign bit).
func (w *wave) fsrc32(o *op, i int) []uint32 {
	s := w.vsrc(&o.src[i], &w.tmp[i])
	a, n := o.abs>>i&1, o.neg>>i&1
	if a|n == 0 {
		return s
	}
	and, xor := ^uint32(0), uint32(0)
	if a != 0 {
		and = 0x7FFF_FFFF
	}
	if n != 0 {
		xor = 0x8000_0000
	}
	b := &w.tmp[i]
	for l := range b {
		b[l] = s[l]&and ^ xor
	}
	return b[:]
}

// fsrc64 returns source i as two halves with abs/neg applied to the high one.
func (w *wave) fsrc64(o *op, i int) (lo, hi []uint32) {
	lo, hi = w.vsrc64(&o.src[i], &w.tmp[i], &w.tmp[i+3])
	a, n := o.abs>>i&1, o.neg>>i&1
	if a|n == 0 {
		return
	}
	and, xor := ^uint32(0), uint32(0)
	if a != 0 {
		and = 0x7FFF_FFFF
	}
	if n != 0 {
		xor = 0x8000_0000
	}
	b := &w.tmp[i+3]
	for l := range b {
		b[l] = hi[l]&and ^ xor
	}
	return lo, b[:]
}

// fsrc16 returns source i's selected 16-bit half (VOP3 op_sel bit i) with
// abs/neg applied, in the low half of each lane.
func (w *wave) fsrc16(o *op, i int, float bool) []uint32 {
	s := w.vsrc(&o.src[i], &w.tmp[i])
	sel := uint(o.opsel>>i&1) * 16
	a, n := o.abs>>i&1, o.neg>>i&1
	if sel == 0 && (a|n == 0 || !float) {
		return s
	}
	and, xor := uint32(0xFFFF), uint32(0)
	if float && a != 0 {
		and = 0x7FFF
	}
	if float && n != 0 {
		xor = 0x8000
	}
	b := &w.tmp[i]
	for l := range b {
		b[l] = s[l]>>sel&and ^ xor
	}
	return b[:]
}

// outF32 applies omod and clamp to an f32 result.
func outF32(o *op, r float32) float32 {
	switch o.omod {
	case 1:
		r *= 2
	case 2:
		r *= 4
	case 3:
		r *= 0.5
	}
	if o.clamp {
		r = float32(clamp01(float64(r)))
	}
	return r
}

func outF64(o *op, r float64) float64 {
	switch o.omod {
	case 1:
		r *= 2
	case 2:
		r *= 4
	case 3:
		r *= 0.5
	}
	if o.clamp {
		r = clamp01(r)
	}
	return r
}

// f32 operation flavours for the MODE handling.
type f32fn func(a, b, c float32, rnd uint32) float32

const (
	fNormal      = 0
	fFlushAlways = 1 // v_mad_f32 / v_mac_f32 / v_mad_legacy: f32 denormals always flushed
)

// runF32 executes an f32 operation with n sources.
func runF32(w *wave, o *op, n int, flags int, f f32fn) {
	exec := w.exec()
	a := w.fsrc32(o, 0)
	b, c := a, a
	if n > 1 {
		b = w.fsrc32(o, 1)
	}
	if n > 2 {
		c = w.fsrc32(o, 2)
	}
	d := w.vdst(&o.dst)
	mode := w.mode
	rnd := mode & 3
	inFlush := mode&0x10 == 0 || flags&fFlushAlways != 0
	outFlush := mode&0x20 == 0 || flags&fFlushAlways != 0
	post := o.omod != 0 || o.clamp
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		x, y, z := a[l], b[l], c[l]
		if inFlush {
			x, y, z = flush32(x), flush32(y), flush32(z)
		}
		r := f(f32(x), f32(y), f32(z), rnd)
		if post {
			r = outF32(o, r)
		}
		u := u32(r)
		if outFlush {
			u = flush32(u)
		}
		d[l] = u
	}
}

type f64fn func(a, b, c float64, rnd uint32) float64

func runF64(w *wave, o *op, n int, f f64fn) {
	exec := w.exec()
	alo, ahi := w.fsrc64(o, 0)
	blo, bhi, clo, chi := alo, ahi, alo, ahi
	if n > 1 {
		blo, bhi = w.fsrc64(o, 1)
	}
	if n > 2 {
		// Third 64-bit source: the staging buffers 2 and 5 are used.
		clo, chi = w.fsrc64(o, 2)
	}
	dlo, dhi := w.vdst64(&o.dst)
	mode := w.mode
	rnd := mode >> 2 & 3
	inFlush := mode&0x40 == 0
	outFlush := mode&0x80 == 0
	post := o.omod != 0 || o.clamp
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		x := uint64(alo[l]) | uint64(ahi[l])<<32
		y := uint64(blo[l]) | uint64(bhi[l])<<32
		z := uint64(clo[l]) | uint64(chi[l])<<32
		if inFlush {
			x, y, z = flush64(x), flush64(y), flush64(z)
		}
		r := f(f64(x), f64(y), f64(z), rnd)
		if post {
			r = outF64(o, r)
		}
		u := u64(r)
		if outFlush {
			u = flush64(u)
		}
		dlo[l], dhi[l] = uint32(u), uint32(u>>32)
	}
}

// runF16 executes an f16 operation computed in float64 and rounded once.
// GFX9 writes the result to the low half and zeroes the high half, unless
// VOP3 op_sel[3] selects the high half (then the low half is kept).
func runF16(w *wave, o *op, n int, f f64fn) {
	exec := w.exec()
	a := w.fsrc16(o, 0, true)
	b, c := a, a
	if n > 1 {
		b = w.fsrc16(o, 1, true)
	}
	if n > 2 {
		c = w.fsrc16(o, 2, true)
	}
	d := w.vdst(&o.dst)
	mode := w.mode
	rnd := mode >> 2 & 3
	inFlush := mode&0x40 == 0
	outFlush := mode&0x80 == 0
	hi := o.opsel&8 != 0
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		x, y, z := uint16(a[l]), uint16(b[l]), uint16(c[l])
		if inFlush {
			x, y, z = flush16(x), flush16(y), flush16(z)
		}
		r := f(f16to64(x), f16to64(y), f16to64(z), rnd)
		if o.omod != 0 || o.clamp {
			r = outF64(o, r)
		}
		h := f16from64(r, rnd)
		if outFlush {
			h = flush16(h)
		}
		if hi {
			d[l] = d[l]&0xFFFF | uint32(h)<<16
		} else {
			d[l] = uint32(h)
		}
	}
}

// u32fn is an integer operation on 32-bit lanes.
type u32fn func(a, b, c uint32) uint32

func runU32(w *wave, o *op, n int, f u32fn) {
	exec := w.exec()
	a := w.vsrc(&o.src[0], &w.tmp[0])
	b, c := a, a
	if n > 1 {
		b = w.vsrc(&o.src[1], &w.tmp[1])
	}
	if n > 2 {
		c = w.vsrc(&o.src[2], &w.tmp[2])
	}
	d := w.vdst(&o.dst)
	if exec == ^uint64(0) {
		for l := 0; l < 64; l++ {
			d[l] = f(a[l], b[l], c[l])
		}
		return
	}
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 {
			d[l] = f(a[l], b[l], c[l])
		}
	}
}

// runU16 runs a 16-bit integer operation on op_sel-selected halves.
func runU16(w *wave, o *op, n int, f u32fn) {
	exec := w.exec()
	a := w.fsrc16(o, 0, false)
	b, c := a, a
	if n > 1 {
		b = w.fsrc16(o, 1, false)
	}
	if n > 2 {
		c = w.fsrc16(o, 2, false)
	}
	d := w.vdst(&o.dst)
	hi := o.opsel&8 != 0
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		r := f(a[l]&0xFFFF, b[l]&0xFFFF, c[l]&0xFFFF) & 0xFFFF
		if hi {
			d[l] = d[l]&0xFFFF | r<<16
		} else {
			d[l] = r
		}
	}
}

// u64fn is an integer operation on 64-bit lanes.
type u64fn func(a, b, c uint64) uint64

// runU64 runs a 64-bit integer operation; wide reports per source whether it
// is 64 bits (else 32 bits, zero-extended).
func runU64(w *wave, o *op, n int, wide [3]bool, f u64fn) {
	exec := w.exec()
	var lo, hi [3][]uint32
	for i := 0; i < n; i++ {
		if wide[i] {
			lo[i], hi[i] = w.vsrc64(&o.src[i], &w.tmp[i], &w.tmp[i+3])
		} else {
			lo[i] = w.vsrc(&o.src[i], &w.tmp[i])
		}
	}
	dlo, dhi := w.vdst64(&o.dst)
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var x [3]uint64
		for i := 0; i < n; i++ {
			x[i] = uint64(lo[i][l])
			if wide[i] {
				x[i] |= uint64(hi[i][l]) << 32
			}
		}
		r := f(x[0], x[1], x[2])
		dlo[l], dhi[l] = uint32(r), uint32(r>>32)
	}
}

// carry-out ops: f returns the result and the carry/borrow bit. cin is the
// carry-in mask source (src[2]) when withCarryIn.
func runCarry(w *wave, o *op, withCarryIn bool, f func(a, b, c uint32) (uint32, uint32)) {
	exec := w.exec()
	a := w.vsrc(&o.src[0], &w.tmp[0])
	b := w.vsrc(&o.src[1], &w.tmp[1])
	var cin uint64
	if withCarryIn {
		cin = w.sread64(&o.src[2])
	}
	d := w.vdst(&o.dst)
	var cout uint64
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		r, c := f(a[l], b[l], uint32(cin>>l&1))
		if o.clamp {
			// Saturating forms (clamp on v_add/sub_*_u32).
			if c != 0 {
				if r > a[l] || o.imm&1 != 0 { // subtraction underflow
					r = 0
				} else {
					r = 0xFFFF_FFFF
				}
			}
		}
		d[l] = r
		cout |= uint64(c) << l
	}
	// Inactive lanes' carry bits are written as 0 (GFX9 VOP3b).
	w.swrite64(&o.sdst, cout)
}

// runCmp32 compares 32-bit sources; the result goes to sdst (VCC or an SGPR
// pair) for active lanes, 0 for inactive ones; the _x forms also write EXEC.
func runCmp(w *wave, o *op, test func(l int) bool, x bool) {
	exec := w.exec()
	var r uint64
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 && test(l) {
			r |= 1 << l
		}
	}
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

func cmpF32(w *wave, o *op, x bool, pred func(a, b float32) bool) {
	a := w.fsrc32(o, 0)[:64]
	b := w.fsrc32(o, 1)[:64]
	flush := w.mode&0x10 == 0
	exec := w.exec()
	var r uint64
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		p, q := a[l], b[l]
		if flush {
			p, q = flush32(p), flush32(q)
		}
		if pred(f32(p), f32(q)) {
			r |= 1 << l
		}
	}
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

func cmpF64(w *wave, o *op, x bool, pred func(a, b float64) bool) {
	alo, ahi := w.fsrc64(o, 0)
	blo, bhi := w.fsrc64(o, 1)
	runCmp(w, o, func(l int) bool {
		return pred(f64(uint64(alo[l])|uint64(ahi[l])<<32), f64(uint64(blo[l])|uint64(bhi[l])<<32))
	}, x)
}

func cmpF16(w *wave, o *op, x bool, pred func(a, b float64) bool) {
	a := w.fsrc16(o, 0, true)
	b := w.fsrc16(o, 1, true)
	runCmp(w, o, func(l int) bool { return pred(f16to64(uint16(a[l])), f16to64(uint16(b[l]))) }, x)
}

func cmpU32(w *wave, o *op, x bool, pred func(a, b uint32) bool) {
	a := w.vsrc(&o.src[0], &w.tmp[0])[:64]
	b := w.vsrc(&o.src[1], &w.tmp[1])[:64]
	exec := w.exec()
	var r uint64
	for l := 0; l < 64; l++ {
		if exec>>l&1 != 0 && pred(a[l], b[l]) {
			r |= 1 << l
		}
	}
	w.swrite64(&o.sdst, r)
	if x {
		w.setExec(r)
	}
}

func cmpU16(w *wave, o *op, x bool, pred func(a, b uint32) bool) {
	a := w.fsrc16(o, 0, false)
	b := w.fsrc16(o, 1, false)
	runCmp(w, o, func(l int) bool { return pred(a[l]&0xFFFF, b[l]&0xFFFF) }, x)
}

func cmpU64(w *wave, o *op, x bool, pred func(a, b uint64) bool) {
	alo, ahi := w.vsrc64(&o.src[0], &w.tmp[0], &w.tmp[3])
	blo, bhi := w.vsrc64(&o.src[1], &w.tmp[1], &w.tmp[4])
	runCmp(w, o, func(l int) bool {
		return pred(uint64(alo[l])|uint64(ahi[l])<<32, uint64(blo[l])|uint64(bhi[l])<<32)
	}, x)
}

// class32, class64 and class16 test the IEEE class mask of v_cmp_class:
// bit 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0,
// 6 +0, 7 +denormal, 8 +normal, 9 +inf.
func class32(u uint32, mask uint32) bool {
	var bit uint32
	neg := u>>31 != 0
	e, m := u>>23&0xFF, u&0x7F_FFFF
	switch {
	case e == 0xFF && m != 0:
		if m&0x40_0000 == 0 {
			bit = 0
		} else {
			bit = 1
		}
	case e == 0xFF:
		bit = 2
		if !neg {
			bit = 9
		}
	case e == 0 && m == 0:
		bit = 5
		if !neg {
			bit = 6
		}
	case e == 0:
		bit = 4
		if !neg {
			bit = 7
		}
	default:
		bit = 3
		if !neg {
			bit = 8
		}
	}
	return mask>>bit&1 != 0
}

func class64(u uint64, mask uint32) bool {
	hi := uint32(u >> 32)
	e, mzero := hi>>20&0x7FF, u&0xF_FFFF_FFFF_FFFF == 0
	neg := u>>63 != 0
	var bit uint32
	switch {
	case e == 0x7FF && !mzero:
		if u>>51&1 == 0 {
			bit = 0
		} else {
			bit = 1
		}
	case e == 0x7FF:
		bit = 2
		if !neg {
			bit = 9
		}
	case e == 0 && mzero:
		bit = 5
		if !neg {
			bit = 6
		}
	case e == 0:
		bit = 4
		if !neg {
			bit = 7
		}
	default:
		bit = 3
		if !neg {
			bit = 8
		}
	}
	return mask>>bit&1 != 0
}

func class16(u uint16, mask uint32) bool {
	e, m := u>>10&0x1F, u&0x3FF
	neg := u>>15 != 0
	var bit uint32
	switch {
	case e == 0x1F && m != 0:
		if m&0x200 == 0 {
			bit = 0
		} else {
			bit = 1
		}
	case e == 0x1F:
		bit = 2
		if !neg {
			bit = 9
		}
	case e == 0 && m == 0:
		bit = 5
		if !neg {
			bit = 6
		}
	case e == 0:
		bit = 4
		if !neg {
			bit = 7
		}
	default:
		bit = 3
		if !neg {
			bit = 8
		}
	}
	return mask>>bit&1 != 0
}
