package codeobject

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"debug/elf"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/rocpu/rocpu/target"
)

// Clang offload bundle magics.
const (
	BundleMagic           = "__CLANG_OFFLOAD_BUNDLE__"
	CompressedBundleMagic = "CCOB"
)

// Compression methods of a compressed bundle (llvm::compression::Format).
const (
	CompressionZlib = 0
	CompressionZstd = 1
)

// Bundle is a clang offload bundle: the container hipcc and
// clang-offload-bundler write, one entry per offload target.
type Bundle struct {
	Entries []BundleEntry
	// Compressed describes the CCOB header when the bundle was compressed.
	Compressed *CompressedHeader
	// Size is the number of input bytes the bundle occupies.
	Size int64
}

// CompressedHeader is the header of a compressed ("CCOB") bundle.
type CompressedHeader struct {
	Version          uint16
	Method           uint16
	FileSize         uint64 // 0 in version 1
	UncompressedSize uint64
	Hash             uint64 // first 8 bytes of the MD5 of the uncompressed bundle, little endian
	HashOK           bool
}

// BundleEntry is one bundled object. ID is the bundle entry ID,
// "<kind>-<triple>[-<target-id>]", e.g.
// "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-".
type BundleEntry struct {
	ID     string
	Kind   string // "host", "hip", "hipv4", "openmp", ...
	Target string // ID without the kind: "amdgcn-amd-amdhsa--gfx90a:xnack-"
	Offset uint64
	Size   uint64
	Data   []byte
	// HeaderOff is the offset of the entry's record in the bundle header.
	HeaderOff int64
}

// IsBundle reports whether b starts with a bundle magic.
func IsBundle(b []byte) bool {
	return bytes.HasPrefix(b, []byte(BundleMagic)) || bytes.HasPrefix(b, []byte(CompressedBundleMagic))
}

// maxDecompressed bounds the size of a decompressed bundle.
const maxDecompressed = 1 << 30

// ParseBundle parses a bundle, compressed or not. Entry data aliases b
// (or the decompressed buffer).
func ParseBundle(b []byte) (*Bundle, error) {
	if bytes.HasPrefix(b, []byte(CompressedBundleMagic)) {
		return parseCompressedBundle(b)
	}
	if !bytes.HasPrefix(b, []byte(BundleMagic)) {
		return nil, formatErr(0, "not a clang offload bundle (no %s magic)", BundleMagic)
	}
	off := uint64(len(BundleMagic))
	rd64 := func(what string) (uint64, error) {
		if off+8 > uint64(len(b)) {
			return 0, formatErr(int64(off), "truncated bundle header reading %s", what)
		}
		v := le.Uint64(b[off:])
		off += 8
		return v, nil
	}
	n, err := rd64("the entry count")
	if err != nil {
		return nil, err
	}
	// Each entry record needs at least 24 bytes.
	if n > uint64(len(b))/24 {
		return nil, formatErr(int64(off-8), "bundle claims %d entries, more than its %d bytes can hold", n, len(b))
	}
	bd := &Bundle{}
	end := off
	for i := uint64(0); i < n; i++ {
		hdr := int64(off)
		eo, err := rd64("an entry offset")
		if err != nil {
			return nil, err
		}
		es, err := rd64("an entry size")
		if err != nil {
			return nil, err
		}
		ts, err := rd64("an entry ID size")
		if err != nil {
			return nil, err
		}
		if ts > uint64(len(b))-off {
			return nil, formatErr(int64(off-8), "bundle entry ID of %d bytes runs past the end", ts)
		}
		id := string(b[off : off+ts])
		off += ts
		if eo > uint64(len(b)) || es > uint64(len(b))-eo {
			return nil, formatErr(hdr, "bundle entry %q [%#x, +%#x) lies outside the %d-byte bundle", id, eo, es, len(b))
		}
		e := BundleEntry{ID: id, Offset: eo, Size: es, Data: b[eo : eo+es], HeaderOff: hdr}
		e.Kind, e.Target, _ = strings.Cut(id, "-")
		bd.Entries = append(bd.Entries, e)
		end = max(end, eo+es)
	}
	bd.Size = int64(max(end, off))
	return bd, nil
}

func parseCompressedBundle(b []byte) (*Bundle, error) {
	if len(b) < 8 {
		return nil, formatErr(0, "truncated compressed bundle header")
	}
	h := &CompressedHeader{Version: le.Uint16(b[4:]), Method: le.Uint16(b[6:])}
	var hdr int
	switch h.Version {
	case 1:
		hdr = 16
		if len(b) >= hdr {
			h.UncompressedSize, h.Hash = uint64(le.Uint32(b[8:])), le.Uint64(b[12:])
		}
	case 2:
		hdr = 24
		if len(b) >= hdr {
			h.FileSize, h.UncompressedSize, h.Hash = uint64(le.Uint32(b[8:])), uint64(le.Uint32(b[12:])), le.Uint64(b[16:])
		}
	case 3:
		hdr = 32
		if len(b) >= hdr {
			h.FileSize, h.UncompressedSize, h.Hash = le.Uint64(b[8:]), le.Uint64(b[16:]), le.Uint64(b[24:])
		}
	default:
		return nil, notSupported("compressed bundle version %d", h.Version)
	}
	if len(b) < hdr {
		return nil, formatErr(0, "truncated version %d compressed bundle header (%d bytes)", h.Version, len(b))
	}
	payload := b[hdr:]
	size := int64(len(b))
	if h.FileSize != 0 {
		if h.FileSize < uint64(hdr) || h.FileSize > uint64(len(b)) {
			return nil, formatErr(8, "compressed bundle file size %d is outside [%d, %d]", h.FileSize, hdr, len(b))
		}
		payload = b[hdr:h.FileSize]
		size = int64(h.FileSize)
	}
	if h.UncompressedSize > maxDecompressed {
		return nil, formatErr(8, "compressed bundle claims %d uncompressed bytes", h.UncompressedSize)
	}
	var r io.Reader
	switch h.Method {
	case CompressionZlib:
		zr, err := zlib.NewReader(bytes.NewReader(payload))
		if err != nil {
			return nil, formatErr(int64(hdr), "zlib stream: %v", err)
		}
		defer zr.Close()
		r = zr
	case CompressionZstd:
		zr, err := zstd.NewReader(bytes.NewReader(payload), zstd.WithDecoderMaxMemory(min(h.UncompressedSize+1<<20, maxDecompressed)), zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, formatErr(int64(hdr), "zstd stream: %v", err)
		}
		defer zr.Close()
		r = zr
	default:
		return nil, notSupported("bundle compression method %d", h.Method)
	}
	// Read at most the announced size (plus one byte to detect a lie);
	// preallocate only what the input could plausibly expand to.
	var out bytes.Buffer
	out.Grow(int(min(h.UncompressedSize, uint64(16*len(payload)+4096))))
	n, err := io.Copy(&out, io.LimitReader(r, int64(h.UncompressedSize)+1))
	if err != nil {
		return nil, formatErr(int64(hdr), "decompressing bundle: %v", err)
	}
	if uint64(n) != h.UncompressedSize {
		return nil, formatErr(8, "compressed bundle decompresses to %d bytes, header says %d", n, h.UncompressedSize)
	}
	sum := md5.Sum(out.Bytes())
	h.HashOK = le.Uint64(sum[:8]) == h.Hash
	if bytes.HasPrefix(out.Bytes(), []byte(CompressedBundleMagic)) {
		return nil, formatErr(int64(hdr), "compressed bundle contains another compressed bundle")
	}
	inner, err := ParseBundle(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("codeobject: in decompressed bundle: %w", err)
	}
	inner.Compressed = h
	inner.Size = size
	return inner, nil
}

// Find returns the entry whose ID or Target equals id.
func (bd *Bundle) Find(id string) (*BundleEntry, bool) {
	for i := range bd.Entries {
		if bd.Entries[i].ID == id || bd.Entries[i].Target == id {
			return &bd.Entries[i], true
		}
	}
	return nil, false
}

// CodeObjects returns the entries that hold AMDGPU code objects.
func (bd *Bundle) CodeObjects() []*BundleEntry {
	var out []*BundleEntry
	for i := range bd.Entries {
		e := &bd.Entries[i]
		if strings.HasPrefix(e.Target, "amdgcn-") && len(e.Data) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// EncodeBundle writes an uncompressed bundle holding entries, each placed
// at a 4096-byte boundary as clang-offload-bundler does. Only the entries'
// ID and Data are used.
func EncodeBundle(entries []BundleEntry) []byte {
	var b bytes.Buffer
	b.WriteString(BundleMagic)
	hdr := uint64(len(BundleMagic) + 8)
	for _, e := range entries {
		hdr += 24 + uint64(len(e.ID))
	}
	put := func(v uint64) { var x [8]byte; le.PutUint64(x[:], v); b.Write(x[:]) }
	put(uint64(len(entries)))
	off := hdr
	offs := make([]uint64, len(entries))
	for i, e := range entries {
		off = alignUp(off, 4096)
		offs[i] = off
		put(off)
		put(uint64(len(e.Data)))
		put(uint64(len(e.ID)))
		b.WriteString(e.ID)
		off += uint64(len(e.Data))
	}
	for i, e := range entries {
		b.Write(make([]byte, offs[i]-uint64(b.Len())))
		b.Write(e.Data)
	}
	return b.Bytes()
}

// CompressBundle wraps an uncompressed bundle in a version 2 or 3 CCOB
// header with zlib or zstd compression.
func CompressBundle(bundle []byte, method, version uint16) ([]byte, error) {
	var payload bytes.Buffer
	switch method {
	case CompressionZlib:
		w := zlib.NewWriter(&payload)
		w.Write(bundle)
		w.Close()
	case CompressionZstd:
		w, err := zstd.NewWriter(&payload)
		if err != nil {
			return nil, err
		}
		w.Write(bundle)
		w.Close()
	default:
		return nil, notSupported("bundle compression method %d", method)
	}
	sum := md5.Sum(bundle)
	var h []byte
	h = append(h, CompressedBundleMagic...)
	h = le.AppendUint16(h, version)
	h = le.AppendUint16(h, method)
	switch version {
	case 2:
		h = le.AppendUint32(h, uint32(24+payload.Len()))
		h = le.AppendUint32(h, uint32(len(bundle)))
	case 3:
		h = le.AppendUint64(h, uint64(32+payload.Len()))
		h = le.AppendUint64(h, uint64(len(bundle)))
	default:
		return nil, notSupported("compressed bundle version %d", version)
	}
	h = append(h, sum[:8]...)
	return append(h, payload.Bytes()...), nil
}

// HIPFatBinaries finds the device bundles of a HIP host executable or
// shared object: the contents of its .hip_fatbin section (one bundle per
// translation unit, each at a 4096-byte boundary), or, without that
// section name, the fat binary the __hip_fatbin_wrapper points at.
func HIPFatBinaries(data []byte) ([]*Bundle, error) {
	ef, err := safeELF(data)
	if err != nil {
		return nil, err
	}
	var fbOff, fbSize uint64
	if s := ef.Section(".hip_fatbin"); s != nil {
		if s.Type == elf.SHT_NOBITS || s.Offset > uint64(len(data)) || s.Size > uint64(len(data))-s.Offset {
			return nil, formatErr(int64(s.Offset), ".hip_fatbin section lies outside the file")
		}
		fbOff, fbSize = s.Offset, s.Size
	} else if off, size, ok := hipFatbinWrapper(ef, data); ok {
		fbOff, fbSize = off, size
	} else {
		return nil, fmt.Errorf("codeobject: no .hip_fatbin section or HIP fat binary wrapper: not a HIP executable")
	}
	s := struct{ Offset uint64 }{fbOff}
	fb := data[fbOff : fbOff+fbSize]
	var out []*Bundle
	for off := 0; off < len(fb); {
		i := bytes.Index(fb[off:], []byte(BundleMagic))
		if j := bytes.Index(fb[off:], []byte(CompressedBundleMagic)); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			break
		}
		bd, err := ParseBundle(fb[off+i:])
		if err != nil {
			return out, rebase(err, int64(s.Offset)+int64(off+i))
		}
		out = append(out, bd)
		off += i + int(max(bd.Size, 1))
	}
	if len(out) == 0 {
		return nil, formatErr(int64(s.Offset), ".hip_fatbin holds no offload bundle")
	}
	return out, nil
}

// hipFatbinWrapper follows the __hip_fatbin_wrapper structure HIP's
// startup code passes to __hipRegisterFatBinary ({u32 magic "HIPF", u32
// version, u64 address of the fat binary, u64 unused}, in section
// .hipFatBinSegment) to the device code, through the program headers; the
// bundle runs to the end of its segment's file bytes.
func hipFatbinWrapper(ef *elf.File, data []byte) (off, size uint64, ok bool) {
	ws := ef.Section(".hipFatBinSegment")
	if ws == nil || ws.Type == elf.SHT_NOBITS || ws.Offset > uint64(len(data)) || ws.Size < 16 || ws.Size > uint64(len(data))-ws.Offset {
		return 0, 0, false
	}
	w := data[ws.Offset:]
	if le.Uint32(w) != 0x48495046 {
		return 0, 0, false
	}
	addr := le.Uint64(w[8:])
	for _, p := range ef.Progs {
		if p.Type != elf.PT_LOAD || addr < p.Vaddr || addr-p.Vaddr >= p.Filesz {
			continue
		}
		off = p.Off + (addr - p.Vaddr)
		size = p.Filesz - (addr - p.Vaddr)
		if off > uint64(len(data)) || size > uint64(len(data))-off {
			return 0, 0, false
		}
		return off, size, true
	}
	return 0, 0, false
}

// safeELF opens a host ELF file with debug/elf, turning a panic on corrupt
// input into an error.
func safeELF(data []byte) (ef *elf.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			ef, err = nil, fmt.Errorf("codeobject: corrupt host ELF file: %v", r)
		}
	}()
	return elf.NewFile(bytes.NewReader(data))
}

// Embedded is one code object found in an input by OpenAny.
type Embedded struct {
	// Name says where it came from: "" for a plain code object, else the
	// bundle entry ID (prefixed by "#N:" for the Nth bundle of a HIP
	// executable when there are several).
	Name string
	File *File
	Err  error
}

// OpenAny reads every AMDGPU code object in data: data itself when it is a
// code object, each code-object entry of a bundle, or of each bundle in a
// HIP executable's .hip_fatbin.
func OpenAny(data []byte) ([]Embedded, error) {
	switch {
	case IsBundle(data):
		bd, err := ParseBundle(data)
		if err != nil {
			return nil, err
		}
		return bundleObjects([]*Bundle{bd}), nil
	case len(data) >= 20 && string(data[:4]) == elf.ELFMAG && elf.Machine(le.Uint16(data[18:])) != EM_AMDGPU:
		bds, err := HIPFatBinaries(data)
		if err != nil {
			return nil, err
		}
		return bundleObjects(bds), nil
	}
	f, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return []Embedded{{File: f}}, nil
}

func bundleObjects(bds []*Bundle) []Embedded {
	var out []Embedded
	for i, bd := range bds {
		for _, e := range bd.CodeObjects() {
			name := e.ID
			if len(bds) > 1 {
				name = fmt.Sprintf("#%d:%s", i, e.ID)
			}
			f, err := Parse(e.Data)
			out = append(out, Embedded{Name: name, File: f, Err: err})
		}
	}
	return out
}

// FindCompatible returns the code-object entry whose target ID runs on
// agent (target.Compatible: same processor or a generic family member,
// matching xnack/sramecc settings). Among several it prefers the one that
// pins the most features, as clang's runtime does; an error lists what was
// offered when none fits.
func (bd *Bundle) FindCompatible(agent target.ID) (*BundleEntry, error) {
	var best *BundleEntry
	bestPinned := -1
	var offered []string
	for _, e := range bd.CodeObjects() {
		_, id, err := target.ParseBundleEntryID(e.ID)
		if err != nil {
			offered = append(offered, e.ID+" (unparsable: "+err.Error()+")")
			continue
		}
		offered = append(offered, e.ID)
		if target.Compatible(id, agent) != nil {
			continue
		}
		pinned := 0
		for _, s := range id.Features {
			if s != target.Any {
				pinned++
			}
		}
		if pinned > bestPinned {
			best, bestPinned = e, pinned
		}
	}
	if best == nil {
		return nil, fmt.Errorf("codeobject: no bundle entry runs on %s (offered: %s)", agent, strings.Join(offered, ", "))
	}
	return best, nil
}
