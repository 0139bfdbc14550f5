package hsa

import "fmt"

// This file is the Go side of the AMD loader extension
// (hsa_ven_amd_loader.h, versions 1.00-1.03), which ROCclr and debuggers
// use to map device addresses back to executables and code objects.

// Code object storage types (hsa_ven_amd_loader_code_object_storage_type_t).
const (
	HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE   = 0
	HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE   = 1
	HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY = 2
)

// Loaded code object kinds (hsa_ven_amd_loader_loaded_code_object_kind_t).
const (
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM = 1
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT   = 2
)

// LoadedCodeObjectInfo is hsa_ven_amd_loader_loaded_code_object_info_t.
type LoadedCodeObjectInfo uint32

// Loaded code object attributes, with the Go type LoadedCodeObject.Info
// returns.
const (
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE                      LoadedCodeObjectInfo = 1  // *Executable
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND                            LoadedCodeObjectInfo = 2  // uint32
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT                           LoadedCodeObjectInfo = 3  // *Agent
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE        LoadedCodeObjectInfo = 4  // uint32
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE LoadedCodeObjectInfo = 5  // uint64
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE LoadedCodeObjectInfo = 6  // uint64
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE        LoadedCodeObjectInfo = 7  // int32 (fd)
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA                      LoadedCodeObjectInfo = 8  // int64
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE                       LoadedCodeObjectInfo = 9  // uint64
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE                       LoadedCodeObjectInfo = 10 // uint64
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH                      LoadedCodeObjectInfo = 11 // uint32
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI                             LoadedCodeObjectInfo = 12 // string
)

// Info returns a loaded code object attribute
// (hsa_ven_amd_loader_loaded_code_object_get_info).
func (l *LoadedCodeObject) Info(attr LoadedCodeObjectInfo) (any, error) {
	const op = "LoadedCodeObject.Info"
	if err := l.exe.rt.check(op); err != nil {
		return nil, err
	}
	rd := &l.reader
	switch attr {
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
		return l.exe, nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
		return uint32(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT), nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
		return l.agent, nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
		return rd.storage, nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
		if rd.storage != HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY {
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "the code object was not loaded from memory")
		}
		return rd.memBase, nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
		if rd.storage != HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY {
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "the code object was not loaded from memory")
		}
		return uint64(len(rd.data)), nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE:
		if rd.storage != HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE {
			return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "the code object was not loaded from a file")
		}
		return rd.fd, nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
		return int64(l.delta), nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
		return l.loBase, nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
		return uint64(len(l.mem)), nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
		return uint32(len(l.uri)), nil
	case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
		return l.uri, nil
	}
	return nil, errorf(op, HSA_STATUS_ERROR_INVALID_ARGUMENT, "unknown loaded code object attribute %d", attr)
}

// LoadedCodeObject returns the loaded code object whose handle is h.
func (r *Runtime) LoadedCodeObject(h uint64) (*LoadedCodeObject, error) {
	if err := r.check("LoadedCodeObject"); err != nil {
		return nil, err
	}
	if l := r.ldr.loaded.get(r, tagLoaded, h); l != nil {
		return l, nil
	}
	return nil, errorf("LoadedCodeObject", HSA_STATUS_ERROR_INVALID_ARGUMENT, "no loaded code object with handle %#x", h)
}

// HostAddress is hsa_ven_amd_loader_query_host_address: device addresses
// are host addresses, so a device-visible address is its own answer;
// others get HSA_STATUS_ERROR_INVALID_ARGUMENT.
func (r *Runtime) HostAddress(addr uint64) (uint64, error) {
	if err := r.check("HostAddress"); err != nil {
		return 0, err
	}
	if addr == 0 || r.space.Find(addr) == nil {
		return 0, errorf("HostAddress", HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not a device address", addr)
	}
	return addr, nil
}

// loadedAt returns the loaded code object one of whose segments holds addr.
func (r *Runtime) loadedAt(addr uint64) *LoadedCodeObject {
	reg := r.space.Find(addr)
	if reg == nil {
		return nil
	}
	l, _ := reg.Owner.(*LoadedCodeObject)
	return l
}

// ExecutableAt is hsa_ven_amd_loader_query_executable: the executable
// whose loaded code has addr (HSA_STATUS_ERROR_INVALID_ARGUMENT if none).
func (r *Runtime) ExecutableAt(addr uint64) (*Executable, error) {
	if err := r.check("ExecutableAt"); err != nil {
		return nil, err
	}
	if l := r.loadedAt(addr); l != nil {
		return l.exe, nil
	}
	return nil, errorf("ExecutableAt", HSA_STATUS_ERROR_INVALID_ARGUMENT, "%#x is not in a loaded code object", addr)
}

// SegmentDescriptor is hsa_ven_amd_loader_segment_descriptor_t.
type SegmentDescriptor struct {
	Agent         *Agent
	Executable    *Executable
	StorageType   uint32
	StorageBase   uint64 // the code object bytes (memory readers), else 0
	StorageSize   uint64
	StorageOffset uint64
	SegmentBase   uint64
	SegmentSize   uint64
}

// SegmentDescriptors is hsa_ven_amd_loader_query_segment_descriptors: one
// entry per loaded PT_LOAD segment of every executable.
func (r *Runtime) SegmentDescriptors() ([]SegmentDescriptor, error) {
	if err := r.check("SegmentDescriptors"); err != nil {
		return nil, err
	}
	var out []SegmentDescriptor
	for _, e := range r.Executables() {
		for _, l := range e.LoadedCodeObjects() {
			for _, s := range l.segs {
				d := SegmentDescriptor{Agent: l.agent, Executable: e, StorageType: l.reader.storage,
					StorageSize: uint64(len(l.reader.data)), StorageOffset: l.reader.fileOffset, SegmentBase: s[0], SegmentSize: s[1]}
				if l.reader.storage == HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY {
					d.StorageBase = l.reader.memBase
				}
				out = append(out, d)
			}
		}
	}
	return out, nil
}

func (l *LoadedCodeObject) String() string { return fmt.Sprintf("loaded code object %s", l.uri) }
