package codeobject

import (
	"debug/elf"
	"path/filepath"

	"github.com/rocpu/rocpu/target"
	"testing"
)

// TestDescriptorAgreesWithMetadata checks, for every golden object, that the
// descriptor (or amd_kernel_code_t) and the metadata say the same thing.
func TestDescriptorAgreesWithMetadata(t *testing.T) {
	for _, path := range goldenObjects(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.Processor()
			if err != nil {
				t.Fatal(err)
			}
			ks, err := f.Kernels()
			if err != nil {
				t.Fatal(err)
			}
			if len(ks) == 0 {
				t.Fatal("no kernels")
			}
			for _, k := range ks {
				m := k.Meta
				r, err := k.Resources(p)
				if err != nil {
					t.Fatal(err)
				}
				if m == nil {
					// Hand-written V2 assembly carries no metadata; the
					// amd_kernel_code_t alone describes the kernel.
					if f.Version() != V2 || k.KernelCode == nil {
						t.Fatalf("%s: no metadata", k.Name)
					}
					continue
				}
				// Compiled kernels' counts must give exactly the descriptor's
				// granules; hand-written assembly metadata (no .language)
				// may omit the reserved VCC/FLAT_SCRATCH/XNACK SGPRs.
				compiled := m.Language != "" && m.Language != "Assembler"
				if uint64(r.LDS) != m.GroupSegmentFixedSize || uint64(r.Scratch) != m.PrivateSegmentFixedSize ||
					uint64(r.WaveSize) != m.WavefrontSize {
					t.Errorf("%s: descriptor LDS %d scratch %d wave %d; metadata %d %d %d", k.Name, r.LDS, r.Scratch, r.WaveSize,
						m.GroupSegmentFixedSize, m.PrivateSegmentFixedSize, m.WavefrontSize)
				}
				if k.Descriptor != nil && k.Descriptor.KernargSize != 0 && uint64(k.Descriptor.KernargSize) != m.KernargSegmentSize {
					t.Errorf("%s: KERNARG_SIZE %d, metadata %d", k.Name, k.Descriptor.KernargSize, m.KernargSegmentSize)
				}
				if k.KernelCode != nil && k.KernelCode.KernargSegmentByteSize != m.KernargSegmentSize {
					t.Errorf("%s: kernarg_segment_byte_size %d, metadata %d", k.Name, k.KernelCode.KernargSegmentByteSize, m.KernargSegmentSize)
				}
				// The granulated counts are the metadata counts rounded up.
				// LLVM 15's .vgpr_count on a unified register file (gfx90a)
				// is already the VGPR+AGPR total (arch VGPRs aligned to 4,
				// then AGPRs), so it alone determines the granule there.
				agprs := 0
				if m.AGPRCount != nil && !p.UnifiedVGPRFile {
					agprs = int(*m.AGPRCount)
				}
				g, err := p.GranulatedVGPRCount(int(m.VGPRCount), agprs, r.WaveSize)
				if err != nil {
					t.Fatal(err)
				}
				var rsrc1 uint32
				if k.Descriptor != nil {
					rsrc1 = k.Descriptor.ComputePgmRsrc1
				} else {
					rsrc1 = k.KernelCode.ComputePgmRsrc1
				}
				if compiled && rsrc1&63 != g {
					t.Errorf("%s: GRANULATED_WORKITEM_VGPR_COUNT %d, from metadata (%d VGPRs, %d AGPRs) %d", k.Name, rsrc1&63, m.VGPRCount, agprs, g)
				}
				sg, err := p.GranulatedSGPRCount(int(m.SGPRCount))
				if err != nil {
					t.Fatal(err)
				}
				if compiled && p.Family < target.GFX10 && rsrc1>>6&15 != sg {
					t.Errorf("%s: GRANULATED_WAVEFRONT_SGPR_COUNT %d, from metadata .sgpr_count %d: %d", k.Name, rsrc1>>6&15, m.SGPRCount, sg)
				}
				if r.VGPRs < int(m.VGPRCount) || r.SGPRs < int(m.SGPRCount) {
					t.Errorf("%s: allocation %d VGPRs %d SGPRs below metadata %d %d", k.Name, r.VGPRs, r.SGPRs, m.VGPRCount, m.SGPRCount)
				}
				if f.Type == elf.ET_DYN && (k.EntryAddr%256 != 0 || k.CodeSize == 0 || k.EntryAddr != k.CodeAddr) {
					t.Errorf("%s: entry %#x code size %d", k.Name, k.EntryAddr, k.CodeSize)
				}
			}
		})
	}
}
