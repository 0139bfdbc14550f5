package emu

import (
	"fmt"
	"math"
)

// MIMG image instructions (Vega / MI200 ISA reference guides, "Image
// Memory Instructions", "Image Resource" and "Image Sampler"): image_load,
// image_load_mip, image_store, image_store_mip, image_get_resinfo,
// image_sample, image_sample_lz and image_sample_l, on linear (SW_MODE 0)
// 1D, 2D, 3D, 1D-array and 2D-array resources with a single mip level,
// in the formats buffer_*_format_* handles (ops_format.go).
//
// The resource (T#, eight dwords) is read from the instruction's srsrc
// SGPRs, the sampler (S#, four dwords) from ssamp:
//
//	T# w0      BASE_ADDRESS: address bits 39:8 (the data is 256-byte aligned)
//	T# w1      BASE_ADDRESS_HI 7:0 (address bits 47:40), MIN_LOD 19:8,
//	           DATA_FORMAT 25:20, NUM_FORMAT 29:26
//	T# w2      WIDTH-1 13:0, HEIGHT-1 27:14, PERF_MOD 30:28
//	T# w3      DST_SEL_X 2:0, _Y 5:3, _Z 8:6, _W 11:9, BASE_LEVEL 15:12,
//	           LAST_LEVEL 19:16, SW_MODE 24:20, TYPE 31:28
//	T# w4      DEPTH-1 12:0 (3D depth or array layers), PITCH-1 28:13 (in
//	           elements), BC_SWIZZLE 31:29
//	T# w5      BASE_ARRAY 12:0
//	S# w0      CLAMP_X 2:0, CLAMP_Y 5:3, CLAMP_Z 8:6, FORCE_UNNORMALIZED 15
//	S# w2      XY_MAG_FILTER 21:20, XY_MIN_FILTER 23:22, Z_FILTER 25:24,
//	           MIP_FILTER 27:26
//	S# w3      BORDER_COLOR_TYPE 31:30
//
// (ockl, the device library HIP's texture functions call, reads WIDTH,
// HEIGHT and DEPTH and tests FORCE_UNNORMALIZED and XY_MAG_FILTER at these
// positions; hsa/imagesrd.go writes them.)
//
// Addresses are the instruction's vaddr VGPRs in order: the coordinates
// the resource TYPE implies (1D: x; 2D and 1D array: x, y|slice; 3D and 2D
// array: x, y, z|slice), then the mip level (_mip) or LOD (_l). Loads and
// stores take unsigned texel coordinates; an access outside the resource
// loads 0 and stores nothing. Samples take f32 coordinates, normalized
// unless the S# or the instruction's unorm bit says otherwise; the texture
// unit works on fixed-point texel coordinates with 8 fractional bits, which
// this models by rounding the texel coordinate to 1/256 before point
// selection and for the bilinear weights (without it, ockl's point-sampling
// fix-up, which snaps x to floor(x·w)/w, could land a hair below the texel
// it intends). Array slices are rounded to nearest even and clamped.
// Address modes: wrap, mirror, clamp to last texel, mirror once, clamp to
// border and mirror once to border, with the three preset border colors
// (applied to the result channels; BC_SWIZZLE is not consulted).
//
// The result goes through DST_SEL (0, 1, or a format component; missing
// components read 0, a missing w reads 1) and dmask packs the enabled
// channels into consecutive data registers. Everything else — tiled
// swizzle modes, mipmaps, cube and MSAA resources, anisotropic and
// half-border modes, register border colors, differing min/mag filters,
// d16, a16, tfe/lwe, gather4, derivatives, depth compare and offsets —
// faults as not supported rather than returning approximate data.

// op.imm for MIMG: dmask in bits 3:0 and the unorm bit; op.flags marks
// the _mip forms (their level follows the coordinates).
const (
	imgUnorm = 1 << 4
	fImgMip  = 1 << 8
)

// T# TYPE values (SQ_RSRC_IMG_*).
const (
	imgType1D      = 8
	imgType2D      = 9
	imgType3D      = 10
	imgType1DArray = 12
	imgType2DArray = 13
)

// tsharp is a decoded image resource.
type tsharp struct {
	base             uint64
	dfmt, nfmt       uint32
	width, height    uint32
	depth            uint32 // 3D depth or array layers
	pitch            uint32 // row pitch in elements
	baseArray        uint32
	sel              [4]uint32
	typ              uint32
	dims             int    // coordinates the type takes
	elem             uint32 // bytes per element
	lay              fmtLayout
	baseLvl, lastLvl uint32
}

// decodeTSharp decodes and checks a T#; the error names what rocpu does
// not support.
func decodeTSharp(r *[8]uint32) (t tsharp, err error) {
	t.base = (uint64(r[0]) | uint64(r[1]&0xFF)<<32) << 8
	t.dfmt, t.nfmt = r[1]>>20&0x3F, r[1]>>26&0xF
	t.width, t.height = r[2]&0x3FFF+1, r[2]>>14&0x3FFF+1
	t.sel = [4]uint32{r[3] & 7, r[3] >> 3 & 7, r[3] >> 6 & 7, r[3] >> 9 & 7}
	t.baseLvl, t.lastLvl = r[3]>>12&0xF, r[3]>>16&0xF
	swMode := r[3] >> 20 & 0x1F
	t.typ = r[3] >> 28
	t.depth = r[4]&0x1FFF + 1
	t.pitch = r[4]>>13&0xFFFF + 1
	t.baseArray = r[5] & 0x1FFF
	switch t.typ {
	case imgType1D:
		t.dims, t.height, t.depth = 1, 1, 1
	case imgType2D:
		t.dims, t.depth = 2, 1
	case imgType3D:
		t.dims = 3
	case imgType1DArray:
		t.dims, t.height = 2, 1
	case imgType2DArray:
		t.dims = 3
	default:
		return t, fmt.Errorf("image resource TYPE %d (%s): %w", t.typ, imgTypeName(t.typ), ErrNotSupported)
	}
	if swMode != 0 {
		return t, fmt.Errorf("image SW_MODE %d (tiled; only linear, 0, is supported): %w", swMode, ErrNotSupported)
	}
	if t.lastLvl != t.baseLvl {
		return t, fmt.Errorf("image with mip levels %d..%d (mipmaps): %w", t.baseLvl, t.lastLvl, ErrNotSupported)
	}
	for _, s := range t.sel {
		if s == 2 || s == 3 {
			return t, fmt.Errorf("image DST_SEL %d (reserved): %w", s, ErrNotSupported)
		}
	}
	if t.lay, t.elem, err = imageLayout(t.dfmt, t.nfmt); err != nil {
		return t, err
	}
	if t.pitch < t.width {
		return t, fmt.Errorf("image PITCH %d smaller than WIDTH %d: %w", t.pitch, t.width, ErrNotSupported)
	}
	return t, nil
}

func imgTypeName(typ uint32) string {
	switch typ {
	case 11:
		return "cube"
	case 14, 15:
		return "MSAA"
	}
	if typ < 8 {
		return "a buffer, not an image"
	}
	return "reserved"
}

// imageLayout is formatLayout's check for image DATA_FORMAT/NUM_FORMAT
// (the encodings of the formats rocpu supports are the buffer ones).
func imageLayout(dfmt, nfmt uint32) (l fmtLayout, elem uint32, err error) {
	bad := func() (fmtLayout, uint32, error) {
		return l, 0, fmt.Errorf("image DATA_FORMAT %d NUM_FORMAT %d: %w", dfmt, nfmt, ErrNotSupported)
	}
	if dfmt > 15 || nfmt == 6 || nfmt > 7 {
		return bad()
	}
	if p := packedFormats[dfmt]; p != nil {
		if nfmt == 7 && dfmt >= 8 {
			return bad()
		}
		l.packed, l.n = true, uint32(len(p))
		sh := uint32(0)
		for c, b := range p {
			l.bits[c], l.shift[c] = b, sh
			sh += b
		}
		return l, 4, nil
	}
	b, n := bufFormats[dfmt][0], bufFormats[dfmt][1]
	if b == 0 || (nfmt == 7 && b == 8) {
		return bad()
	}
	l.n = n
	for c := uint32(0); c < n; c++ {
		l.bits[c], l.shift[c] = b, c*b/8
	}
	return l, n * b / 8, nil
}

// ssharp is a decoded sampler.
type ssharp struct {
	clamp      [3]uint32
	unnorm     bool
	filter     uint32 // 0 point, 1 bilinear
	zFilter    uint32 // 0 none (as XY), 1 point, 2 linear
	border     [4]uint32
	borderType uint32
}

func decodeSSharp(r *[4]uint32) (s ssharp, err error) {
	s.clamp = [3]uint32{r[0] & 7, r[0] >> 3 & 7, r[0] >> 6 & 7}
	s.unnorm = r[0]>>15&1 != 0
	mag, min := r[2]>>20&3, r[2]>>22&3
	s.zFilter = r[2] >> 24 & 3
	s.borderType = r[3] >> 30
	if aniso := r[0] >> 9 & 7; aniso != 0 {
		return s, fmt.Errorf("sampler MAX_ANISO_RATIO %d: %w", aniso, ErrNotSupported)
	}
	if cmp := r[0] >> 12 & 7; cmp != 0 {
		return s, fmt.Errorf("sampler DEPTH_COMPARE_FUNC %d: %w", cmp, ErrNotSupported)
	}
	// With one mip level the LOD only chooses between the two filters;
	// rocpu computes no LOD, so they must agree.
	if mag != min {
		return s, fmt.Errorf("sampler XY_MAG_FILTER %d != XY_MIN_FILTER %d: %w", mag, min, ErrNotSupported)
	}
	if mag > 1 {
		return s, fmt.Errorf("sampler anisotropic XY filter %d: %w", mag, ErrNotSupported)
	}
	if s.zFilter == 3 {
		return s, fmt.Errorf("sampler Z_FILTER 3 (reserved): %w", ErrNotSupported)
	}
	s.filter = mag
	for _, c := range s.clamp {
		if c == 4 || c == 5 {
			return s, fmt.Errorf("sampler CLAMP mode %d (half border): %w", c, ErrNotSupported)
		}
	}
	if s.borderType == 3 {
		return s, fmt.Errorf("sampler BORDER_COLOR_TYPE 3 (register): %w", ErrNotSupported)
	}
	return s, nil
}

func init() {
	defM("image_load", "", imageLoad)
	defM("image_load_mip", "", imageLoad)
	defM("image_store", "", imageStore)
	defM("image_store_mip", "", imageStore)
	defM("image_get_resinfo", "", imageResinfo)
	defM("image_sample", "", imageSample)
	defM("image_sample_lz", "", imageSample)
	defM("image_sample_l", "", imageSample)
}

// imageFault stops the dispatch for an unsupported resource or sampler.
func imageFault(w *wave, err error) {
	panic(&Fault{Kind: FaultUnimplemented, PC: w.curPC, Lane: -1, Detail: err.Error(), err: ErrNotSupported})
}

func (w *wave) tsharpOf(o *op) tsharp {
	var r [8]uint32
	i := o.src[1].idx
	copy(r[:], w.s[i:i+8])
	t, err := decodeTSharp(&r)
	if err != nil {
		imageFault(w, err)
	}
	return t
}

// vaddr returns VGPR i of the instruction's address tuple.
func (w *wave) vaddr(o *op, i int) []uint32 {
	r := o.src[0]
	r.idx += uint16(i)
	return w.vdst(&r)
}

// texelAddr is the address of element (x, y, z) (z: depth or layer).
func (t *tsharp) texelAddr(x, y, z uint32) uint64 {
	return t.base + ((uint64(z)*uint64(t.height)+uint64(y))*uint64(t.pitch)+uint64(x))*uint64(t.elem)
}

// fetch reads the element at (x, y, z) and returns its channels after
// DST_SEL, as register values.
func (t *tsharp) fetch(w *wave, o *op, l int, x, y, z uint32) (c [4]uint32) {
	a := t.texelAddr(x, y, z)
	var comp [4]uint32
	if t.lay.packed {
		word := w.read(o, l, a, 4)
		for i := uint32(0); i < t.lay.n; i++ {
			comp[i] = formatToReg(word>>t.lay.shift[i]&(1<<t.lay.bits[i]-1), t.lay.bits[i], t.nfmt)
		}
	} else {
		for i := uint32(0); i < t.lay.n; i++ {
			raw := w.read(o, l, a+uint64(t.lay.shift[i]), int(t.lay.bits[i]/8))
			comp[i] = formatToReg(raw, t.lay.bits[i], t.nfmt)
		}
	}
	one := uint32(1)
	if fmtIsFloat(t.nfmt) {
		one = 0x3F800000
	}
	if t.lay.n < 4 {
		comp[3] = one
	}
	for i, s := range t.sel {
		switch s {
		case 0:
			c[i] = 0
		case 1:
			c[i] = one
		default:
			c[i] = comp[s-4]
		}
	}
	return c
}

// writeDMask writes channels c to the data registers dmask enables.
func writeDMask(d *[4][]uint32, dmask uint32, l int, c *[4]uint32) {
	j := 0
	for i := 0; i < 4; i++ {
		if dmask>>i&1 != 0 {
			d[j][l] = c[i]
			j++
		}
	}
}

func dmaskCount(dmask uint32) int {
	n := 0
	for i := 0; i < 4; i++ {
		n += int(dmask >> i & 1)
	}
	return n
}

// intCoords returns lane l's texel coordinates and whether they are inside
// the resource (and, for _mip, whether the level exists).
func (t *tsharp) intCoords(w *wave, o *op, l int, mip bool) (x, y, z uint32, ok bool) {
	x = w.vaddr(o, 0)[l]
	if t.dims > 1 {
		y = w.vaddr(o, 1)[l]
	}
	if t.dims > 2 {
		z = w.vaddr(o, 2)[l]
	}
	if t.typ == imgType1DArray {
		y, z = 0, y
	}
	ok = x < t.width && y < t.height && z < t.depth
	if mip && w.vaddr(o, t.dims)[l] != 0 {
		ok = false // the one level is level 0
	}
	if t.typ == imgType1DArray || t.typ == imgType2DArray {
		z += t.baseArray
	}
	return
}

func imageLoad(w *wave, o *op) {
	t := w.tsharpOf(o)
	exec := w.exec()
	dmask := o.imm & 0xF
	d := w.regs(&o.dst, dmaskCount(dmask))
	mip := o.flags&fImgMip != 0
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var c [4]uint32
		if x, y, z, ok := t.intCoords(w, o, l, mip); ok {
			c = t.fetch(w, o, l, x, y, z)
		}
		writeDMask(&d, dmask, l, &c)
	}
}

func imageStore(w *wave, o *op) {
	t := w.tsharpOf(o)
	exec := w.exec()
	dmask := o.imm & 0xF
	if need := uint32(1)<<t.lay.n - 1; dmask&need != need {
		imageFault(w, fmt.Errorf("image store with dmask %#x not covering the format's %d components: %w", dmask, t.lay.n, ErrNotSupported))
	}
	s := w.regs(&o.dst, dmaskCount(dmask))
	mip := o.flags&fImgMip != 0
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		x, y, z, ok := t.intCoords(w, o, l, mip)
		if !ok {
			continue
		}
		a := t.texelAddr(x, y, z)
		if t.lay.packed {
			word := uint32(0)
			for i := uint32(0); i < t.lay.n; i++ {
				word |= regToFormat(s[i][l], t.lay.bits[i], t.nfmt) << t.lay.shift[i]
			}
			w.write(o, l, a, 4, word)
			continue
		}
		for i := uint32(0); i < t.lay.n; i++ {
			w.write(o, l, a+uint64(t.lay.shift[i]), int(t.lay.bits[i]/8), regToFormat(s[i][l], t.lay.bits[i], t.nfmt))
		}
	}
}

// imageResinfo returns width, height, depth (or layers) and the number of
// mip levels for the mip level in vaddr; beyond the last level it returns
// 0 in every channel.
func imageResinfo(w *wave, o *op) {
	t := w.tsharpOf(o)
	exec := w.exec()
	dmask := o.imm & 0xF
	d := w.regs(&o.dst, dmaskCount(dmask))
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var c [4]uint32
		if w.vaddr(o, 0)[l] == 0 {
			c = [4]uint32{t.width, t.height, t.depth, 1}
			if t.typ == imgType1D || t.typ == imgType1DArray {
				c[1] = 1
			}
			if t.typ == imgType1DArray {
				c[1] = t.depth
			}
		}
		writeDMask(&d, dmask, l, &c)
	}
}

// address applies clamp mode m to texel index i of an n-texel axis;
// border reports a texel outside the resource under a border mode.
func address(i int64, n int64, m uint32) (j int64, border bool) {
	switch m {
	case 0: // wrap
		j = i % n
		if j < 0 {
			j += n
		}
	case 1: // mirror
		j = i % (2 * n)
		if j < 0 {
			j += 2 * n
		}
		if j >= n {
			j = 2*n - 1 - j
		}
	case 2: // clamp to last texel
		j = min(max(i, 0), n-1)
	case 3: // mirror once, clamp to last texel
		if i < 0 {
			i = -i - 1
		}
		j = min(i, n-1)
	case 6: // clamp to border
		j, border = i, i < 0 || i >= n
	case 7: // mirror once, then border
		if i < 0 {
			i = -i - 1
		}
		j, border = i, i >= n
	}
	return j, border
}

// texelCoord converts a sample coordinate to fixed-point texel space (8
// fractional bits), from normalized coordinates when norm is set.
func texelCoord(c uint32, n uint32, norm bool) float64 {
	f := float64(f32(c))
	if norm {
		f *= float64(n)
	}
	if f != f {
		return 0
	}
	// Far outside any resource every address mode has settled; bounding
	// keeps the integer conversions exact.
	f = min(max(f, -1<<40), 1<<40)
	return math.Round(f*256) / 256
}

// sampleAxis returns the (up to two) texel indices along one axis and the
// weight of the second.
func sampleAxis(u float64, linear bool) (i0 int64, frac float64) {
	if !linear {
		return int64(math.Floor(u)), 0
	}
	u -= 0.5
	f := math.Floor(u)
	return int64(f), u - f
}

func imageSample(w *wave, o *op) {
	t := w.tsharpOf(o)
	var r [4]uint32
	i := o.src[2].idx
	copy(r[:], w.s[i:i+4])
	smp, err := decodeSSharp(&r)
	if err != nil {
		imageFault(w, err)
	}
	if t.typ == imgType3D && smp.zFilter != 0 && smp.zFilter-1 != smp.filter {
		imageFault(w, fmt.Errorf("sampler Z_FILTER %d with XY filter %d: %w", smp.zFilter, smp.filter, ErrNotSupported))
	}
	float := fmtIsFloat(t.nfmt)
	if smp.filter == 1 && !float {
		imageFault(w, fmt.Errorf("bilinear filtering of integer image data (NUM_FORMAT %d): %w", t.nfmt, ErrNotSupported))
	}
	one := uint32(1)
	if float {
		one = 0x3F800000
	}
	switch smp.borderType {
	case 1:
		smp.border = [4]uint32{0, 0, 0, one}
	case 2:
		smp.border = [4]uint32{one, one, one, one}
	}
	norm := !smp.unnorm && o.imm&imgUnorm == 0
	linear := smp.filter == 1
	exec := w.exec()
	dmask := o.imm & 0xF
	d := w.regs(&o.dst, dmaskCount(dmask))
	// Axes that filter: x, y for 2D-like types, z for 3D.
	axes := t.dims
	if t.typ == imgType1DArray || t.typ == imgType2DArray {
		axes--
	}
	size := [3]int64{int64(t.width), int64(t.height), int64(t.depth)}
	for l := 0; l < 64; l++ {
		if exec>>l&1 == 0 {
			continue
		}
		var i0 [3]int64
		var frac [3]float64
		for a := 0; a < axes; a++ {
			u := texelCoord(w.vaddr(o, a)[l], uint32(size[a]), norm)
			i0[a], frac[a] = sampleAxis(u, linear)
		}
		layer := uint32(0)
		if axes < t.dims {
			s := float64(f32(w.vaddr(o, axes)[l]))
			if s != s {
				s = 0
			}
			layer = uint32(min(max(math.RoundToEven(s), 0), float64(t.depth-1))) + t.baseArray
		}
		taps := 1
		if linear {
			taps = 1 << axes
		}
		var acc [4]float64
		var c [4]uint32
		for tap := 0; tap < taps; tap++ {
			var xyz [3]uint32
			wgt := 1.0
			border := false
			for a := 0; a < axes; a++ {
				idx := i0[a]
				if tap>>a&1 != 0 {
					idx++
					wgt *= frac[a]
				} else if linear {
					wgt *= 1 - frac[a]
				}
				j, b := address(idx, size[a], smp.clamp[a])
				border = border || b
				xyz[a] = uint32(j)
			}
			if axes < t.dims {
				xyz[2] = layer
			}
			var tc [4]uint32
			if border {
				tc = smp.border
			} else {
				tc = t.fetch(w, o, l, xyz[0], xyz[1], xyz[2])
			}
			if !linear {
				c = tc
				break
			}
			if wgt != 0 {
				for ch := range acc {
					acc[ch] += wgt * float64(f32(tc[ch]))
				}
			}
		}
		if linear {
			for ch := range acc {
				c[ch] = u32(float32(acc[ch]))
			}
		}
		writeDMask(&d, dmask, l, &c)
	}
}
