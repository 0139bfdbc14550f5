package emu

// Program control (SOPP) semantics.

func opEndpgm(w *wave, o *op) {
	w.state = waveDone
	w.yield = true
}

func opBarrier(w *wave, o *op) {
	w.state = waveBarrier
	w.wg.barrier++
	w.yield = true
}

func opNop(w *wave, o *op) {}

func opSleep(w *wave, o *op) {
	w.yield = true
	w.slept = true
}

// branch jumps to the next pc plus simm*4. A taken backward branch switches
// waves once the wave has run the switch interval since its last switch, so
// a wave spinning on another wave's flag lets that wave run.
func (w *wave) branch(o *op) {
	if o.simm < 0 {
		if w.since >= w.r.dev.cfg.SwitchInterval {
			w.yield = true
			w.spin = true
		}
	}
	w.pc = uint64(int64(w.pc) + int64(o.simm)*4)
}

func opBranch(w *wave, o *op) { w.branch(o) }

func opCbranchSCC0(w *wave, o *op) {
	if w.scc == 0 {
		w.branch(o)
	}
}

func opCbranchSCC1(w *wave, o *op) {
	if w.scc != 0 {
		w.branch(o)
	}
}

func opCbranchVCCZ(w *wave, o *op) {
	if w.vcc() == 0 {
		w.branch(o)
	}
}

func opCbranchVCCNZ(w *wave, o *op) {
	if w.vcc() != 0 {
		w.branch(o)
	}
}

func opCbranchEXECZ(w *wave, o *op) {
	if w.exec() == 0 {
		w.branch(o)
	}
}

func opCbranchEXECNZ(w *wave, o *op) {
	if w.exec() != 0 {
		w.branch(o)
	}
}

// opTrap: s_trap 2 (llvm.trap, abort/assert) fails the dispatch with an
// exception; s_trap 3 (llvm.debugtrap) is a no-op without a debugger. Other
// trap ids are treated as exceptions too, as the ROCm trap handler does.
func opTrap(w *wave, o *op) {
	if o.simm&0xFF == 3 {
		return
	}
	w.fault(o, FaultException, -1, 0, "s_trap "+itoa(int(o.simm&0xFF)))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
