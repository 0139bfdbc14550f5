// Command lib is the main package that -buildmode=c-shared turns into
// rocpu's libhsa-runtime64.so.1: it links package capi, which defines
// every hsa_* symbol. cgo does not allow -soname or --version-script in
// #cgo LDFLAGS, so the build passes them to the external linker:
//
//	go build -buildmode=c-shared \
//	  -ldflags='-extldflags "-Wl,-soname,libhsa-runtime64.so.1 -Wl,--version-script=capi/lib/exports.map"' \
//	  -o build/libhsa-runtime64.so.1 ./capi/lib
//
// exports.map puts every function ROCr 5.2 exports, and _amdgpu_r_debug,
// under the version ROCR_1 and keeps everything else (the Go runtime, the
// cgo glue, the AMD loader extension's functions) local.
package main

import _ "github.com/rocpu/rocpu/capi"

func main() {}
