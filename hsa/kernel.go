package hsa

import (
	"github.com/rocpu/rocpu/codeobject"
	"github.com/rocpu/rocpu/emu"
	"github.com/rocpu/rocpu/internal/abi"
)

// Kernel is a loaded kernel: what a kernel dispatch packet's kernel_object
// (the kernel descriptor's address) stands for. The loader registers one
// per kernel symbol; the packet processor refuses kernel objects that are
// not registered (HSA_STATUS_ERROR_INVALID_CODE_OBJECT).
type Kernel struct {
	Name    string
	Object  uint64 // kernel descriptor (or amd_kernel_code_t) address
	Agent   *Agent // the agent it was loaded for; nil means any GPU agent
	Program emu.Program
	Entry   uint64 // absolute address of the first instruction

	KernargSize      uint32
	KernargAlign     uint32
	GroupSize        uint32 // static group segment bytes
	PrivateSize      uint32 // static private segment bytes per work-item
	DynamicCallStack bool

	// Meta is the kernel's code object metadata (nil when the kernel was
	// registered from a bare descriptor); Launch lays out arguments from it.
	Meta *codeobject.Kernel
	// Printf holds the code object's printf formats (OpenCL printf);
	// Launch decodes the kernel's printf buffer with them.
	Printf codeobject.PrintfFormats
}

// RegisterKernel makes k.Object a valid kernel object for dispatch
// packets. The descriptor must lie in device-visible memory.
func (r *Runtime) RegisterKernel(k *Kernel) error {
	const op = "RegisterKernel"
	if err := r.check(op); err != nil {
		return err
	}
	if k == nil || k.Object == 0 || k.Object&63 != 0 {
		return errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "kernel object must be a non-zero 64-byte-aligned address")
	}
	if _, err := r.space.Lookup(k.Object, abi.KernelDescriptorSize); err != nil {
		return wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "descriptor at %#x", k.Object)
	}
	if k.Agent != nil && k.Agent.rt != r {
		return errorf(op, HSA_STATUS_ERROR_INVALID_AGENT, "agent of another runtime")
	}
	r.kernMu.Lock()
	r.kernels[k.Object] = k
	r.kernMu.Unlock()
	return nil
}

// UnregisterKernel forgets the kernel object obj (executable destroy).
func (r *Runtime) UnregisterKernel(obj uint64) {
	r.kernMu.Lock()
	delete(r.kernels, obj)
	r.kernMu.Unlock()
}

// KernelAt returns the kernel registered at obj.
func (r *Runtime) KernelAt(obj uint64) (*Kernel, bool) {
	r.kernMu.RLock()
	k, ok := r.kernels[obj]
	r.kernMu.RUnlock()
	return k, ok
}

// KernelFromDescriptor reads the code object V3+ kernel descriptor
// (kernel_descriptor_t) at addr and returns the Kernel it describes,
// registered with the runtime: Program from the COMPUTE_PGM_RSRC words and
// kernel_code_properties, Entry = addr + kernel_code_entry_byte_offset.
func (r *Runtime) KernelFromDescriptor(agent *Agent, name string, addr uint64) (*Kernel, error) {
	const op = "KernelFromDescriptor"
	if err := r.check(op); err != nil {
		return nil, err
	}
	b, err := r.space.Slice(addr, abi.KernelDescriptorSize)
	if err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "descriptor at %#x", addr)
	}
	var kd abi.KernelDescriptor
	if err := kd.UnmarshalBinary(b); err != nil {
		return nil, wrapf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, err, "descriptor at %#x", addr)
	}
	entry := addr + uint64(kd.KernelCodeEntryByteOffset)
	if r.space.Find(entry) == nil {
		return nil, errorf(op, HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "entry %#x of %s is outside device-visible memory", entry, name)
	}
	k := &Kernel{
		Name: name, Object: addr, Agent: agent, Entry: entry,
		Program: emu.Program{
			Rsrc1: kd.ComputePgmRsrc1, Rsrc2: kd.ComputePgmRsrc2, Rsrc3: kd.ComputePgmRsrc3,
			Properties: kd.KernelCodeProperties, KernargPreload: kd.KernargPreload,
			GroupSegmentFixedSize: kd.GroupSegmentFixedSize, PrivateSegmentFixedSize: kd.PrivateSegmentFixedSize,
		},
		KernargSize: kd.KernargSize, KernargAlign: 16,
		GroupSize: kd.GroupSegmentFixedSize, PrivateSize: kd.PrivateSegmentFixedSize,
	}
	if err := r.RegisterKernel(k); err != nil {
		return nil, err
	}
	return k, nil
}
