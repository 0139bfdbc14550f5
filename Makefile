# rocpu — build, demo, test.
#
#   make demo    build rocpu and show what it does on a bundled kernel
#   make test    gofmt, go vet, unit tests (race detector on the concurrent
#                packages), integration tests
#   make corpus  regenerate testdata/kernels (needs the Debian LLVM/ROCm toolchain)
#   make bench   the Go benchmarks
#
# Both demo and test run scripts/setup.sh first when the toolchain is missing.

SHELL := /bin/bash
GO    ?= go
BIN   := bin/rocpu
# Packages whose code runs concurrently: tested again under the race detector.
RACE_PKGS := $(shell $(GO) list ./internal/vmem/... ./emu/... ./hsa/... 2>/dev/null)
DEMO_OBJ := testdata/kernels/obj/vector_add.gfx90a.co4.O2.hsaco

.PHONY: all build demo test fmt-check vet unit race integration corpus bench setup-if-needed clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/rocpu

# Run setup only when a tool it installs is missing, so the two quick-start
# commands work on a fresh machine and stay fast on a prepared one.
setup-if-needed:
	@command -v llvm-objdump-15 >/dev/null && command -v clang-15 >/dev/null \
	  && [ -e /usr/include/hsa/hsa.h ] && [ -e /usr/include/CL/cl.h ] \
	  || bash scripts/setup.sh

demo: setup-if-needed build
	@echo "== rocpu version"; ./$(BIN) version
	@if ./$(BIN) help readobj >/dev/null 2>&1; then \
	  echo; echo "== rocpu readobj --kernels $(DEMO_OBJ)"; ./$(BIN) readobj --kernels $(DEMO_OBJ); \
	else echo "(readobj not built yet)"; fi
	@if ./$(BIN) help objdump >/dev/null 2>&1; then \
	  echo; echo "== rocpu objdump $(DEMO_OBJ)"; ./$(BIN) objdump $(DEMO_OBJ); \
	else echo "(objdump not built yet)"; fi

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

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
