package emu

import (
	"fmt"

	"github.com/rocpu/rocpu/internal/vmem"
	"github.com/rocpu/rocpu/target"
)

// ConfigFor returns the configuration of a device modelling processor p
// over the address space mem. CU and wave-slot counts are not in the
// processor table; MI200-like values are used.
func ConfigFor(p *target.Processor, mem Memory) (Config, error) {
	if p == nil || p.Family != target.GFX9 || !p.Executable {
		return Config{}, fmt.Errorf("emu: processor %v: %w (GFX9 only)", p, ErrNotSupported)
	}
	c := Config{
		Processor:         p.Name,
		CUs:               104,
		WavesPerCU:        32,
		LDSSize:           p.LDSSize,
		VGPRs:             p.VGPRs,
		AGPRs:             p.AGPRs,
		UnifiedVGPRFile:   p.UnifiedVGPRFile,
		SGPRs:             p.SGPRs,
		WaveSize:          64,
		PackedWorkItemIDs: p.PackedWorkItemIDs,
		KernargPreload:    p.KernargPreload,
		Memory:            mem,
	}
	if p.FlatScratch == target.FlatScratchArchitected {
		c.FlatScratch = FlatScratchArchitected
	}
	if c.UnifiedVGPRFile && c.VGPRs > 256 {
		// The table counts the unified file; 256 are architected.
		c.AGPRs = c.VGPRs - 256
		c.VGPRs = 256
	}
	return c, nil
}

// spaceMemory adapts a vmem.Space to Memory.
type spaceMemory struct{ s *vmem.Space }

// SpaceMemory returns s as the engine's Memory: regions of kind code are
// read-only to kernels.
func SpaceMemory(s *vmem.Space) Memory { return spaceMemory{s} }

func (m spaceMemory) Lookup(addr uint64) (Region, bool) {
	r := m.s.Find(addr)
	if r == nil {
		return Region{}, false
	}
	return Region{Base: r.Base, Data: r.Data(), ReadOnly: !r.Kind.DeviceWritable()}, true
}
