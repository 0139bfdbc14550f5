package hsa

import (
	"errors"

	"github.com/rocpu/rocpu/target"
)

// ISAInfo is hsa_isa_info_t (hsa.h).
type ISAInfo uint32

// ISA attributes, with the Go type ISA.Info returns. The two
// CALL_CONVENTION_INFO attributes take a call-convention index.
const (
	HSA_ISA_INFO_NAME_LENGTH                                      ISAInfo = 0  // uint32 (with the NUL)
	HSA_ISA_INFO_NAME                                             ISAInfo = 1  // string
	HSA_ISA_INFO_CALL_CONVENTION_COUNT                            ISAInfo = 2  // uint32
	HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE              ISAInfo = 3  // uint32
	HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT ISAInfo = 4  // uint32
	HSA_ISA_INFO_MACHINE_MODELS                                   ISAInfo = 5  // [2]bool (small, large)
	HSA_ISA_INFO_PROFILES                                         ISAInfo = 6  // [2]bool (base, full)
	HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES                     ISAInfo = 7  // [3]bool (default, zero, near)
	HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES        ISAInfo = 8  // [3]bool
	HSA_ISA_INFO_FAST_F16_OPERATION                               ISAInfo = 9  // bool
	HSA_ISA_INFO_WORKGROUP_MAX_DIM                                ISAInfo = 12 // [3]uint16
	HSA_ISA_INFO_WORKGROUP_MAX_SIZE                               ISAInfo = 13 // uint32
	HSA_ISA_INFO_GRID_MAX_DIM                                     ISAInfo = 14 // Dim3
	HSA_ISA_INFO_GRID_MAX_SIZE                                    ISAInfo = 16 // uint32
	HSA_ISA_INFO_FBARRIER_MAX_SIZE                                ISAInfo = 17 // uint32
)

// ISA is an hsa_isa_t: an instruction set named by a full target ID,
// "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-".
type ISA struct {
	handle uint64
	id     target.ID
	name   string
	wave   *Wavefront
	wpcu   uint32
}

// Wavefront is an hsa_wavefront_t.
type Wavefront struct {
	handle uint64
	size   uint32
}

// WavefrontInfo is hsa_wavefront_info_t.
type WavefrontInfo uint32

// HSA_WAVEFRONT_INFO_SIZE is the wavefront size attribute (uint32).
const HSA_WAVEFRONT_INFO_SIZE WavefrontInfo = 0

// isaFor returns the ISA object for id, creating it once.
func (r *Runtime) isaFor(id target.ID) *ISA {
	name := id.String()
	r.isaMu.Lock()
	defer r.isaMu.Unlock()
	if isa := r.isaByID[name]; isa != nil {
		return isa
	}
	isa := &ISA{handle: r.handle(tagISA, len(r.isas)), id: id, name: name, wpcu: uint32(chipFor(id.Processor).wavesPerCU)}
	isa.wave = &Wavefront{handle: r.handle(tagWavefront, len(r.waves)), size: uint32(id.Processor.DefaultWaveSize)}
	r.waves = append(r.waves, isa.wave)
	r.isas = append(r.isas, isa)
	r.isaByID[name] = isa
	return isa
}

// ISAFromName is hsa_isa_from_name: it accepts any target ID of a processor
// rocpu can execute ("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-",
// "gfx906"); otherwise HSA_STATUS_ERROR_INVALID_ISA_NAME.
func (r *Runtime) ISAFromName(name string) (*ISA, error) {
	const op = "ISAFromName"
	if err := r.check(op); err != nil {
		return nil, err
	}
	id, err := target.ParseID(name)
	if err == nil {
		err = id.Processor.CheckExecutable()
	}
	if err == nil && id.Processor.Generic {
		err = errors.New("generic processors are not agent ISAs")
	}
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_ISA_NAME, err, "%q", name)
	}
	return r.isaFor(id.Canonical()), nil
}

// ISA returns the ISA whose handle is h (HSA_STATUS_ERROR_INVALID_ISA
// otherwise).
func (r *Runtime) ISA(h uint64) (*ISA, error) {
	if err := r.check("ISA"); err != nil {
		return nil, err
	}
	r.isaMu.Lock()
	defer r.isaMu.Unlock()
	i := r.index(tagISA, h)
	if i < 0 || i >= len(r.isas) {
		return nil, errorf("ISA", HSA_STATUS_ERROR_INVALID_ISA, "no ISA with handle %#x", h)
	}
	return r.isas[i], nil
}

// Wavefront returns the wavefront whose handle is h
// (HSA_STATUS_ERROR_INVALID_WAVEFRONT otherwise).
func (r *Runtime) Wavefront(h uint64) (*Wavefront, error) {
	if err := r.check("Wavefront"); err != nil {
		return nil, err
	}
	r.isaMu.Lock()
	defer r.isaMu.Unlock()
	i := r.index(tagWavefront, h)
	if i < 0 || i >= len(r.waves) {
		return nil, errorf("Wavefront", HSA_STATUS_ERROR_INVALID_WAVEFRONT, "no wavefront with handle %#x", h)
	}
	return r.waves[i], nil
}

// Handle returns the opaque hsa_isa_t handle.
func (i *ISA) Handle() uint64 { return i.handle }

// Name returns the full target ID.
func (i *ISA) Name() string { return i.name }

// TargetID returns the parsed target ID.
func (i *ISA) TargetID() target.ID { return i.id }

// Wavefronts returns the wavefronts hsa_isa_iterate_wavefronts visits (one).
func (i *ISA) Wavefronts() []*Wavefront { return []*Wavefront{i.wave} }

// Compatible is hsa_isa_compatible: whether code for code_isa i runs on
// an agent whose ISA is agent.
func (i *ISA) Compatible(agent *ISA) bool { return target.Compatible(i.id, agent.id) == nil }

// Info returns an ISA attribute (hsa_isa_get_info_alt; index is the call
// convention for the two CALL_CONVENTION_INFO attributes and ignored
// otherwise).
func (i *ISA) Info(attr ISAInfo, index uint32) (any, error) {
	const op = "ISA.Info"
	switch attr {
	case HSA_ISA_INFO_NAME_LENGTH:
		return uint32(len(i.name) + 1), nil
	case HSA_ISA_INFO_NAME:
		return i.name, nil
	case HSA_ISA_INFO_CALL_CONVENTION_COUNT:
		return uint32(1), nil
	case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT:
		if index != 0 {
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_INDEX, "call convention %d (there is 1)", index)
		}
		if attr == HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE {
			return i.wave.size, nil
		}
		return i.wpcu, nil
	case HSA_ISA_INFO_MACHINE_MODELS:
		return [2]bool{false, true}, nil
	case HSA_ISA_INFO_PROFILES:
		return [2]bool{true, false}, nil
	case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
		return [3]bool{false, false, true}, nil
	case HSA_ISA_INFO_FAST_F16_OPERATION:
		return true, nil
	case HSA_ISA_INFO_WORKGROUP_MAX_DIM:
		return [3]uint16{WorkgroupMaxSize, WorkgroupMaxSize, WorkgroupMaxSize}, nil
	case HSA_ISA_INFO_WORKGROUP_MAX_SIZE:
		return uint32(WorkgroupMaxSize), nil
	case HSA_ISA_INFO_GRID_MAX_DIM:
		return Dim3{gridMax, gridMax, gridMax}, nil
	case HSA_ISA_INFO_GRID_MAX_SIZE:
		return uint32(gridMax), nil
	case HSA_ISA_INFO_FBARRIER_MAX_SIZE:
		return uint32(FbarrierMaxSize), nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown ISA attribute %#x", uint32(attr))
}

// Handle returns the opaque hsa_wavefront_t handle.
func (w *Wavefront) Handle() uint64 { return w.handle }

// Info returns a wavefront attribute (hsa_wavefront_get_info).
func (w *Wavefront) Info(attr WavefrontInfo) (any, error) {
	if attr == HSA_WAVEFRONT_INFO_SIZE {
		return w.size, nil
	}
	return nil, errorf("Wavefront.Info", HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown wavefront attribute %#x", uint32(attr))
}
