package emu

// EncodeElement returns the bytes of one element of buffer/image format
// dfmt/nfmt (the T# DATA_FORMAT/NUM_FORMAT encodings) holding the register
// values comp, one per memory component in memory order, converted as
// image_store and buffer_store_format_* convert them (ops_format.go). The
// runtime uses it to clear images (hsa_ext_image_clear) with the engine's
// own conversions. Formats the engine does not implement give an error
// wrapping ErrNotSupported.
func EncodeElement(dfmt, nfmt uint32, comp [4]uint32) ([]byte, error) {
	l, elem, err := imageLayout(dfmt, nfmt)
	if err != nil {
		return nil, err
	}
	b := make([]byte, elem)
	if l.packed {
		word := uint32(0)
		for i := uint32(0); i < l.n; i++ {
			word |= regToFormat(comp[i], l.bits[i], nfmt) << l.shift[i]
		}
		le.PutUint32(b, word)
		return b, nil
	}
	for i := uint32(0); i < l.n; i++ {
		v := regToFormat(comp[i], l.bits[i], nfmt)
		for k := uint32(0); k < l.bits[i]/8; k++ {
			b[l.shift[i]+k] = byte(v >> (8 * k))
		}
	}
	return b, nil
}
