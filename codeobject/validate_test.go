package codeobject

import (
	"path/filepath"
	"testing"
)

// TestValidateLLVMObjectsClean: objects LLVM built have no errors.
func TestValidateLLVMObjectsClean(t *testing.T) {
	for _, path := range goldenObjects(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, fd := range f.Validate() {
				if fd.Severity == SeverityError {
					t.Errorf("%v", fd)
				} else {
					t.Logf("%v", fd)
				}
			}
		})
	}
}

// TestValidateFindsViolations builds objects that each break one rule of
// INVENTORY §1.10/§4.8 and checks Validate names it, at the right offset.
func TestValidateFindsViolations(t *testing.T) {
	base := func() (*Builder, *File) {
		f, err := Parse(genericObject(t, 1))
		if err != nil {
			t.Fatal(err)
		}
		b, err := BuilderFrom(f)
		if err != nil {
			t.Fatal(err)
		}
		return b, f
	}
	type tc struct {
		name   string
		edit   func(b *Builder)
		rule   string
		offset func(f *File, k *KernelInfo) int64
	}
	kdOff := func(d int64) func(*File, *KernelInfo) int64 {
		return func(f *File, k *KernelInfo) int64 { return k.DescriptorOff + d }
	}
	cases := []tc{
		{"group segment mismatch", func(b *Builder) { b.Kernels[0].Descriptor.GroupSegmentFixedSize = 64 }, "§1.10.5 group-segment", kdOff(0)},
		{"private segment mismatch", func(b *Builder) { b.Kernels[0].Descriptor.PrivateSegmentFixedSize = 16 }, "§1.10.5 private-segment", kdOff(4)},
		{"kernarg size mismatch", func(b *Builder) { b.Kernels[0].Descriptor.KernargSize = 8 }, "§1.10.5 kernarg-size", kdOff(8)},
		{"user SGPR count wrong", func(b *Builder) { b.Kernels[0].Descriptor.ComputePgmRsrc2 += 2 }, "§4.8 user-sgprs", kdOff(52)},
		{"workitem id 3", func(b *Builder) { b.Kernels[0].Descriptor.ComputePgmRsrc2 |= 3 << 11 }, "§4.8 workitem-id", kdOff(53)},
		{"reserved bytes", func(b *Builder) { b.Kernels[0].Descriptor.Reserved1[3] = 1 }, "§4.1 reserved", kdOff(24)},
		{"CP-filled GRANULATED_LDS_SIZE", func(b *Builder) { b.Kernels[0].Descriptor.ComputePgmRsrc2 |= 1 << 15 }, "§4.8 compute_pgm_rsrc2", kdOff(53)},
		{"wave32 on GFX9", func(b *Builder) {
			b.Kernels[0].Descriptor.KernelCodeProperties |= KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32
		}, "§4.8 kernel_code_properties", kdOff(57)},
		{"RSRC3 on GFX9", func(b *Builder) { b.Kernels[0].Descriptor.ComputePgmRsrc3 = 1 }, "§4.8 compute_pgm_rsrc3", kdOff(44)},
		{"wavefront size metadata", func(b *Builder) { b.Metadata.Kernels[0].WavefrontSize = 32 }, "§1.10.5 wavefront-size", kdOff(57)},
		{"arg past kernarg segment", func(b *Builder) { b.Metadata.Kernels[0].Args[1].Offset = 16 }, "§1.10.7 arg-bounds", nil},
		{"misaligned pointer arg", func(b *Builder) { b.Metadata.Kernels[0].Args[0].Offset = 4 }, "§2.2 arg-offset", nil},
		{"kernarg align not power of 2", func(b *Builder) { b.Metadata.Kernels[0].KernargSegmentAlign = 12 }, "§1.10.7 kernarg-align", nil},
		{"generic processor before V6", func(b *Builder) { b.Version = V4; b.Metadata.Version = []uint64{1, 1} }, "§3.4 generic", func(*File, *KernelInfo) int64 { return 48 }},
		{"metadata version", func(b *Builder) { b.Metadata.Version = []uint64{1, 1} }, "§2.2 amdhsa.version", nil},
		{"target mismatch", func(b *Builder) { b.Metadata.Target = "amdgcn-amd-amdhsa--gfx900" }, "§2.3 amdhsa.target", nil},
		{"sramecc on unsupported", func(b *Builder) { b.Flags.SRAMECC = FeatureOn }, "§1.3 feature", func(*File, *KernelInfo) int64 { return 48 }},
	}
	for _, c := range cases {
		b, _ := base()
		c.edit(b)
		data, err := b.Build()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		f, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ks, _ := f.Kernels()
		found := false
		var all []string
		for _, fd := range f.Validate() {
			all = append(all, fd.String())
			if fd.Rule != c.rule || fd.Severity != SeverityError {
				continue
			}
			if c.offset != nil && len(ks) > 0 && fd.Off != c.offset(f, &ks[0]) {
				continue
			}
			found = true
		}
		if !found {
			t.Errorf("%s: no %s finding; got %v", c.name, c.rule, all)
		}
	}
}

// TestValidateKernelCode: a V2 amd_kernel_code_t with a wrong user SGPR
// count or a CP-filled field set is reported at that word.
func TestValidateKernelCode(t *testing.T) {
	good := readTestdata(t, "kernels.gfx900.co2.hsaco")
	f, err := Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	ks, err := f.Kernels()
	if err != nil || ks[0].KernelCode == nil {
		t.Fatalf("%v %v", ks, err)
	}
	off := ks[0].DescriptorOff
	for _, c := range []struct {
		name string
		at   int64
		xor  byte
		rule string
		want int64
	}{
		{"user SGPR count", off + 52, 0x02, "§4.7 user-sgprs", off + 52},
		{"GRANULATED_LDS_SIZE", off + 53, 0x80, "§4.7 compute_pgm_rsrc2", off + 53},
		{"DEBUG_MODE", off + 50, 0x40, "§4.7 compute_pgm_rsrc1", off + 50},
	} {
		b := make([]byte, len(good))
		copy(b, good)
		b[c.at] ^= c.xor
		g, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, fd := range g.Validate() {
			found = found || (fd.Rule == c.rule && fd.Off == c.want && fd.Severity == SeverityError)
		}
		if !found {
			t.Errorf("%s: not reported: %v", c.name, g.Validate())
		}
	}
}

// TestValidateRelocPlace: a dynamic relocation whose place is outside every
// PT_LOAD segment is an error at the relocation's entry.
func TestValidateRelocPlace(t *testing.T) {
	good := readTestdata(t, "kernels.gfx90a.co4.hsaco")
	f, _ := Parse(good)
	rs, err := f.DynamicRelocs()
	if err != nil || len(rs) != 1 {
		t.Fatalf("%v %v", rs, err)
	}
	b := make([]byte, len(good))
	copy(b, good)
	le.PutUint64(b[rs[0].Off:], 0x7fff0000)
	g, _ := Parse(b)
	found := false
	for _, fd := range g.Validate() {
		found = found || (fd.Rule == "§1.8 reloc-place" && fd.Off == rs[0].Off)
	}
	if !found {
		t.Errorf("relocation outside the segments not reported: %v", g.Validate())
	}
	img, lo, _ := g.Image()
	if err := g.Relocate(img, lo, 0x10000, nil); err == nil {
		t.Errorf("Relocate applied a relocation outside the image")
	}
}
