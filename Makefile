# rocpu — build, demo, test.
#
#   make demo    build rocpu and show what it does on a bundled kernel
#   make test    gofmt, go vet, unit tests (race detector on the concurrent
#                packages), integration tests
#   make corpus  regenerate testdata/kernels (needs the Debian LLVM/ROCm toolchain)
#   make bench   the performance suite against native PoCL (bench/README.md)
#   make bench-go  the packages' Go benchmarks
#
# Both demo and test run scripts/setup.sh first when the toolchain is missing.

SHELL := /bin/bash
GO    ?= go
BIN   := bin/rocpu
LIB   := bin/libhsa-runtime64.so.1
SHIM  := bin/librocpu-preload.so
# Packages whose code runs concurrently: tested again under the race detector.
RACE_PKGS := $(shell $(GO) list ./internal/vmem/... ./emu/... ./hsa/... 2>/dev/null)
DEMO_OBJ := testdata/kernels/obj/vector_add.gfx90a.co4.O2.hsaco

.PHONY: all build demo test fmt-check vet unit race integration corpus bench bench-go setup-if-needed clean

all: build

# build makes the CLI and, beside it, the drop-in HSA library and the
# /dev/kfd preload shim that `rocpu exec` puts in front of ROCm programs.
build:
	$(GO) build -o $(BIN) ./cmd/rocpu
	$(GO) build -buildmode=c-shared \
	  -ldflags='-extldflags "-Wl,-soname,libhsa-runtime64.so.1 -Wl,--version-script=$(CURDIR)/capi/lib/exports.map"' \
	  -o $(LIB) ./capi/lib
	rm -f bin/libhsa-runtime64.so.h
	gcc -shared -fPIC -O2 -Wall -Werror -o $(SHIM) capi/preload/rocpu_preload.c -ldl

# Run setup only when a tool it installs is missing, so the two quick-start
# commands work on a fresh machine and stay fast on a prepared one.
setup-if-needed:
	@command -v llvm-objdump-15 >/dev/null && command -v clang-15 >/dev/null \
	  && [ -e /usr/include/hsa/hsa.h ] && [ -e /usr/include/CL/cl.h ] \
	  || bash scripts/setup.sh

HIP_DEMO := testdata/kernels/hip/matmul_tiled.gfx90a.co4.O2

# demo: inspect a kernel (readobj, objdump), run it on the software GPU with
# `rocpu run`, then run an unmodified hipcc-built HIP program through the
# drop-in libhsa-runtime64.so.1 with `rocpu exec`.
demo: setup-if-needed build
	@echo "== rocpu version"; ./$(BIN) version
	@echo; echo "== rocpu readobj --kernels $(DEMO_OBJ)"; ./$(BIN) readobj --kernels $(DEMO_OBJ)
	@echo; echo "== rocpu objdump $(DEMO_OBJ) (first 40 lines)"; ./$(BIN) objdump $(DEMO_OBJ) | head -n 40
	@echo; echo "== rocpu run: vector_add over 1000 floats on the emulated gfx90a"
	@echo "   a[i] and b[i] hold the bit pattern i (denormals, which gfx90a keeps), so c[i] must hold 2i"
	@d=$$(mktemp -d) && ./$(BIN) run $(DEMO_OBJ) --kernel vector_add --grid 1000 --workgroup 64 \
	  --arg buf:4:1000:seq --arg buf:4:1000:seq --arg buf:4:1000:zero --arg u32:1000 --out $$d --stats && \
	  echo "c[0..7] as bit patterns:" && od -An -tu4 -N32 $$d/arg2.bin && rm -rf $$d
	@echo; echo "== rocpu exec --stats -- $(HIP_DEMO)   (unmodified hipcc binary, Debian's HIP runtime)"
	./$(BIN) exec --stats -- $(HIP_DEMO)

test: setup-if-needed fmt-check vet unit race integration

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi; echo "gofmt: ok"

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

race:
	@if [ -n "$(RACE_PKGS)" ]; then $(GO) test -count=1 -race $(RACE_PKGS); else echo "race: no concurrent packages yet"; fi

# Integration tests drive the built binary end to end (tagged so that
# `go test ./...` stays quick).
integration: build
	ROCPU_BIN=$(CURDIR)/$(BIN) $(GO) test -count=1 -tags integration ./cmd/rocpu/...

corpus:
	bash scripts/corpus.sh

# bench: the performance suite (rocpu vs native PoCL on the same OpenCL
# sources; results into bench/results), then the packages' Go benchmarks.
bench: build
	./$(BIN) bench --out bench/results --commit $$(git rev-parse --short HEAD)

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./isa/ ./codeobject/ ./emu/ ./hsa/ ./internal/vmem/

clean:
	rm -rf bin
