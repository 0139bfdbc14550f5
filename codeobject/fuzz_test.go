package codeobject

import (
	"os"
	"path/filepath"
	"testing"
)

// fuzzSeeds returns the bytes of the golden objects (a bounded number).
func fuzzSeeds(t testing.TB, max int) [][]byte {
	var out [][]byte
	paths := goldenObjects(t)
	m, _ := filepath.Glob("testdata/corrupt/*")
	paths = append(paths, m...)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, b)
		}
		if len(out) >= max {
			break
		}
	}
	return out
}

// exercise calls every accessor of a parsed file; none may panic.
func exercise(f *File) {
	f.Flags().Names()
	f.Version()
	f.LoadSegments()
	for _, p := range f.Progs {
		f.ProgData(p)
	}
	for _, s := range f.Sections {
		f.SectionData(s)
	}
	f.Notes()
	if n, _ := f.FindNote("AMD", NT_AMD_HSA_ISA_VERSION); n != nil {
		ParseISAVersionNote(n)
	}
	if n, _ := f.FindNote("AMD", NT_AMD_HSA_CODE_OBJECT_VERSION); n != nil {
		ParseCodeObjectVersionNote(n)
	}
	f.MetadataDocument()
	f.MetadataYAML()
	if md, err := f.Metadata(); err == nil && md != nil {
		md.YAML()
		md.EncodeMsgPack()
	}
	if v2, err := f.MetadataV2(); err == nil && v2 != nil {
		v2.EncodeYAML()
		v2.Unified()
	}
	f.Symbols()
	f.DynamicSymbols()
	for _, s := range f.RelocSections() {
		f.Relocs(s)
	}
	f.DynamicRelocs()
	p, _ := f.Processor()
	f.TargetID()
	if ks, err := f.Kernels(); err == nil {
		for i := range ks {
			if p != nil {
				ks[i].Resources(p)
				if ks[i].Descriptor != nil {
					ks[i].Descriptor.Fields(p)
				}
			}
		}
	}
	f.Validate()
	f.Encode()
	if img, lo, err := f.Image(); err == nil {
		f.Relocate(img, lo, 0x1000000, func(Symbol) (uint64, error) { return 0x2000, nil })
	}
}

func FuzzNewFile(f *testing.F) {
	for _, b := range fuzzSeeds(f, 40) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Parse(b)
		if err != nil {
			return
		}
		exercise(file)
	})
}

func FuzzMetadata(f *testing.F) {
	for _, b := range fuzzSeeds(f, 40) {
		if file, err := Parse(b); err == nil {
			if n, _ := file.MetadataNote(); n != nil {
				f.Add(n.Desc)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := DecodeMsgPack(b)
		if err != nil {
			if _, err2 := parseV2YAMLNode(b, 0); err2 == nil {
				if md, err := ParseV2YAML(b, 0); err == nil {
					md.EncodeYAML()
					md.Unified()
				}
			}
			return
		}
		YAML(doc)
		enc, err := EncodeMsgPack(doc)
		if err != nil {
			t.Fatalf("re-encoding a decoded document: %v", err)
		}
		again, err := DecodeMsgPack(enc)
		if err != nil {
			t.Fatalf("decoding our own encoding: %v", err)
		}
		if YAML(again) != YAML(doc) {
			t.Fatalf("encode/decode changed the document")
		}
		if md, err := DecodeMetadata(doc, 0); err == nil {
			md.YAML()
			if _, err := md.EncodeMsgPack(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func FuzzBundle(f *testing.F) {
	hipfb, _ := os.ReadFile("testdata/scale.hipfb")
	f.Add(hipfb)
	if c, err := CompressBundle(hipfb, CompressionZstd, 3); err == nil {
		f.Add(c)
	}
	if c, err := CompressBundle(hipfb, CompressionZlib, 2); err == nil {
		f.Add(c)
	}
	f.Add(EncodeBundle([]BundleEntry{{ID: "hipv4-amdgcn-amd-amdhsa--gfx90a", Data: []byte("x")}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		objs, err := OpenAny(b)
		if err != nil {
			return
		}
		for _, o := range objs {
			if o.File != nil {
				exercise(o.File)
			}
		}
	})
}
