package emu

// DPP: the source VGPR's lanes are permuted into a staging buffer, lanes
// whose source is out of range are disabled (or read 0 with bound_ctrl),
// and the row and bank masks restrict writes.
type dppAux struct {
	inner         *op
	src           operand
	ctrl          uint16
	rowMask, bank uint8
	bound         bool
	writesExec    bool
}

// dppLane returns the source lane of lane l under ctrl, -1 when out of
// range, -2 for an invalid control.
func dppLane(ctrl uint16, l int) int {
	c := int(ctrl)
	switch {
	case c <= 0xFF:
		return l&^3 | c>>(2*(l&3))&3
	case c >= 0x101 && c <= 0x10F:
		n := c & 15
		if l&15+n < 16 {
			return l + n
		}
		return -1
	case c >= 0x111 && c <= 0x11F:
		n := c & 15
		if l&15 >= n {
			return l - n
		}
		return -1
	case c >= 0x121 && c <= 0x12F:
		n := c & 15
		return l&^15 | (l-n)&15
	case c == 0x130: // wave_shl1
		if l < 63 {
			return l + 1
		}
		return -1
	case c == 0x134: // wave_rol1
		return (l + 1) & 63
	case c == 0x138: // wave_shr1
		if l > 0 {
			return l - 1
		}
		return -1
	case c == 0x13C: // wave_ror1
		return (l - 1) & 63
	case c == 0x140: // row_mirror
		return l&^15 | 15 - l&15
	case c == 0x141: // row_half_mirror
		return l&^7 | 7 - l&7
	case c == 0x142: // row_bcast:15
		if l >= 16 {
			return l&^15 - 1
		}
		return -1
	case c == 0x143: // row_bcast:31
		if l >= 32 {
			return 31
		}
		return -1
	}
	return -2
}

func execDPP(w *wave, o *op) {
	a := o.aux.dpp
	exec := w.exec()
	src := w.vsrc(&a.src, &w.tmp[9])
	buf := &w.tmp[6]
	en := exec
	for l := 0; l < 64; l++ {
		if a.rowMask>>(l>>4)&1 == 0 || a.bank>>(l>>2&3)&1 == 0 {
			en &^= 1 << l
			continue
		}
		s := dppLane(a.ctrl, l)
		if s < 0 || exec>>s&1 == 0 {
			if a.bound {
				buf[l] = 0
			} else {
				en &^= 1 << l
			}
			continue
		}
		buf[l] = src[s]
	}
	w.setExec(en)
	a.inner.fn(w, a.inner)
	if !a.writesExec {
		w.setExec(exec)
	}
}

// SDWA: sources are byte/word-selected (zero- or sign-extended) into
// staging buffers; the result is merged into the destination per dst_sel
// and dst_unused.
type sdwaAux struct {
	inner             *op
	src               [2]operand
	sel               [2]uint8
	sext              [2]bool
	dst               operand
	dstSel, dstUnused uint8
	vopc              bool
}

func sdwaExtract(v uint32, sel uint8, sext bool) uint32 {
	var sh, width uint
	switch sel {
	case 0, 1, 2, 3:
		sh, width = uint(sel)*8, 8
	case 4, 5:
		sh, width = uint(sel-4)*16, 16
	default:
		return v
	}
	x := v >> sh & (1<<width - 1)
	if sext && x>>(width-1)&1 != 0 {
		x |= ^uint32(0) << width
	}
	return x
}

func execSDWA(w *wave, o *op) {
	a := o.aux.sdwa
	exec := w.exec()
	for i := 0; i < 2; i++ {
		if a.src[i].kind == kNone {
			continue
		}
		s := w.vsrc(&a.src[i], &w.tmp[6+i])
		b := &w.tmp[6+i]
		for l := 0; l < 64; l++ {
			b[l] = sdwaExtract(s[l], a.sel[i], a.sext[i])
		}
	}
	a.inner.fn(w, a.inner)
	if a.vopc {
		return
	}
	r := &w.tmp[8]
	d := w.vdst(&a.dst)
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var sh, width uint
		switch a.dstSel {
		case 0, 1, 2, 3:
			sh, width = uint(a.dstSel)*8, 8
		case 4, 5:
			sh, width = uint(a.dstSel-4)*16, 16
		default:
			d[l] = r[l]
			continue
		}
		mask := uint32(1<<width-1) << sh
		v := r[l] << sh & mask
		switch a.dstUnused {
		case 0: // pad with zeros
			d[l] = v
		case 1: // sign-extend into the upper bits
			if v>>(sh+width-1)&1 != 0 {
				v |= ^uint32(0) << (sh + width)
			}
			d[l] = v
		default: // preserve
			d[l] = d[l]&^mask | v
		}
	}
}
