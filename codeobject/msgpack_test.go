package codeobject

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// decodeCost decodes b and returns the error, the wall time and the bytes
// allocated.
func decodeCost(b []byte) (error, time.Duration, uint64) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	_, err := DecodeMsgPack(b)
	el := time.Since(t0)
	runtime.ReadMemStats(&m1)
	return err, el, m1.TotalAlloc - m0.TotalAlloc
}

// TestMsgPackHostile pins the decoder's cost on inputs built to make a
// naive decoder allocate or copy without bound: each must decode or fail
// with a FormatError in well under a second, allocating at most a small
// multiple of its size.
func TestMsgPackHostile(t *testing.T) {
	slow, err := os.ReadFile("testdata/msgpack/str32-length-huge.bin")
	if err != nil {
		t.Fatal(err)
	}
	const n = 1 << 20
	manyStrings := []byte{0xdd, 0, 0, 0x40, 0} // array32 of 16384 "ab" strings
	for i := 0; i < 1<<14; i++ {
		manyStrings = append(manyStrings, 0xa2, 'a', 'b')
	}
	deepArrays := bytes.Repeat([]byte{0x91}, 10000) // nested 10000 deep
	deepArrays = append(deepArrays, 0)
	cases := []struct {
		name    string
		b       []byte
		wantErr string // "" when the input is valid
		errOff  int64
	}{
		// A fuzzer-found metadata note (6 KB) whose str32 header announces
		// 1.6 GB; it once took 20-65 s of buffer growth to reject.
		{"fuzz-str32-length-huge", slow, "runs past the end", 1},
		{"array32-count-huge", append([]byte{0xdd, 0xff, 0xff, 0xff, 0xff}, make([]byte, n)...), "cannot fit", 0},
		{"map32-count-huge", append([]byte{0xdf, 0xff, 0xff, 0xff, 0xff}, make([]byte, n)...), "cannot fit", 0},
		{"bin32-length-huge", append([]byte{0xc6, 0xff, 0xff, 0xff, 0xff}, make([]byte, n)...), "runs past the end", 0},
		{"array-of-many-strings", manyStrings, "", 0},
		{"nesting-deep", deepArrays, "nesting deeper than 64", 65},
		{"array-count-past-end", []byte{0x93, 0x01, 0x02}, "cannot fit", 0},
		{"truncated-in-array", []byte{0x93, 0x01, 0x02, 0xcd, 0x01}, "truncated", 3},
		{"ext", []byte{0xd4, 0x01, 0x02}, "extension type", 0},
	}
	for _, c := range cases {
		err, el, alloc := decodeCost(c.b)
		if el > 500*time.Millisecond {
			t.Errorf("%s: %v to decode %d bytes", c.name, el, len(c.b))
		}
		// Nodes are ~100 bytes for each ~3-byte string plus its slice
		// slot: the whole document's cost is bounded by 64x its size.
		if alloc > 64*uint64(len(c.b))+16<<10 {
			t.Errorf("%s: %d bytes allocated for %d bytes of input", c.name, alloc, len(c.b))
		}
		if c.wantErr == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, c.wantErr) || fe.Off != c.errOff {
			t.Errorf("%s: got %v, want a FormatError at %d containing %q", c.name, err, c.errOff, c.wantErr)
		}
	}
}

// TestMsgPackScalars pins each encoding's decoded kind and value,
// including LLVM's reading of signed non-negative values as unsigned.
func TestMsgPackScalars(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want string // kind:value
	}{
		{[]byte{0x05}, "uint:5"},
		{[]byte{0xff}, "int:-1"},
		{[]byte{0xd0, 0x05}, "uint:5"},
		{[]byte{0xd1, 0xff, 0x00}, "int:-256"},
		{[]byte{0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0}, "int:-9223372036854775808"},
		{[]byte{0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "uint:18446744073709551615"},
		{[]byte{0xcd, 0x12, 0x34}, "uint:4660"},
		{[]byte{0xca, 0x3f, 0xc0, 0, 0}, "float:1.500000e+00"},
		{[]byte{0xcb, 0x40, 0x04, 0, 0, 0, 0, 0, 0}, "float:2.500000e+00"},
		{[]byte{0xc3}, "bool:true"},
		{[]byte{0xc0}, "nil:"},
		{[]byte{0xd9, 0x02, 'h', 'i'}, "string:hi"},
		{[]byte{0xc4, 0x01, 'x'}, "binary:x"},
	} {
		n, err := DecodeMsgPack(c.b)
		if err != nil {
			t.Errorf("% x: %v", c.b, err)
			continue
		}
		if got := n.Kind.String() + ":" + n.Scalar(); got != c.want {
			t.Errorf("% x: got %s, want %s", c.b, got, c.want)
		}
	}
}
