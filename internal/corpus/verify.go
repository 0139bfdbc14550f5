package corpus

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// ErrNoReference is returned for a Check.Ref that has no Go implementation.
var ErrNoReference = errors.New("corpus: no Go reference for this check")

// RefInput is what a reference function sees: the kernel, every argument's
// initial bytes (buffers after generation, scalars as kernarg bytes), the
// actual outputs when known (for order-dependent results), and the
// wavefront size of the target.
type RefInput struct {
	Kernel        *Kernel
	Args          map[string][]byte
	Outputs       map[string][]byte
	WavefrontSize int
}

// RefFunc computes the expected contents of one checked buffer.
type RefFunc func(in *RefInput) ([]byte, error)

var refs = map[string]RefFunc{}

// Reference returns the Go reference function named by a Check.Ref.
func Reference(name string) (RefFunc, error) {
	f, ok := refs[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoReference, name)
	}
	return f, nil
}

// Inputs generates the initial bytes of every argument of k: buffers from
// their generators (zero when none), scalars from Value or Bytes. Local
// arguments get no entry.
func Inputs(k *Kernel) (map[string][]byte, error) {
	m := make(map[string][]byte, len(k.Args))
	for _, a := range k.Args {
		switch a.Kind {
		case "buffer":
			b, err := a.Init.Fill(a.Type, a.Count)
			if err != nil {
				return nil, fmt.Errorf("corpus: %s arg %s: %w", k.Name, a.Name, err)
			}
			m[a.Name] = b
		case "scalar":
			if a.Type == "struct" {
				b, err := hex.DecodeString(a.Bytes)
				if err != nil || len(b) != a.Size {
					return nil, fmt.Errorf("corpus: %s arg %s: bad struct bytes", k.Name, a.Name)
				}
				m[a.Name] = b
				continue
			}
			b, err := ScalarBytes(a.Type, a.Value)
			if err != nil {
				return nil, fmt.Errorf("corpus: %s arg %s: %w", k.Name, a.Name, err)
			}
			m[a.Name] = b
		case "local":
		default:
			return nil, fmt.Errorf("corpus: %s arg %s: unknown kind %q", k.Name, a.Name, a.Kind)
		}
	}
	return m, nil
}

// Verify checks every checked output of k against its Go reference.
// inputs are the initial argument bytes (from Inputs) and outputs the final
// buffer contents. Checks whose reference is not implemented are reported
// with ErrNoReference (callers may skip them with errors.Is); checks with
// Compare "none" are skipped.
func Verify(k *Kernel, inputs, outputs map[string][]byte, wavefrontSize int) error {
	var errs []error
	for i := range k.Args {
		a := &k.Args[i]
		if a.Check == nil || a.Check.Compare == "none" {
			continue
		}
		got, ok := outputs[a.Name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: no output for %s", k.Name, a.Name))
			continue
		}
		ref, err := Reference(a.Check.Ref)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s.%s: %w", k.Name, a.Name, err))
			continue
		}
		want, err := ref(&RefInput{Kernel: k, Args: inputs, Outputs: outputs, WavefrontSize: wavefrontSize})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s.%s: reference %s: %w", k.Name, a.Name, a.Check.Ref, err))
			continue
		}
		if err := Compare(a.Type, a.Check, got, want); err != nil {
			errs = append(errs, fmt.Errorf("%s.%s: %w", k.Name, a.Name, err))
		}
	}
	return errors.Join(errs...)
}

// Compare compares got with want as elements of typ according to c.
func Compare(typ string, c *Check, got, want []byte) error {
	if len(got) != len(want) {
		return fmt.Errorf("length %d, want %d", len(got), len(want))
	}
	base, _, err := splitVector(typ)
	if err != nil {
		return err
	}
	es := scalarSize[base]
	if es == 0 {
		return fmt.Errorf("corpus: cannot compare type %q", typ)
	}
	n := len(got) / es
	switch c.Compare {
	case "exact":
		for i := 0; i < n; i++ {
			g, w := got[i*es:(i+1)*es], want[i*es:(i+1)*es]
			if string(g) != string(w) {
				return fmt.Errorf("element %d: got %s, want %s", i, format(base, g), format(base, w))
			}
		}
	case "set":
		gs, ws := make([]string, n), make([]string, n)
		for i := 0; i < n; i++ {
			gs[i], ws[i] = string(got[i*es:(i+1)*es]), string(want[i*es:(i+1)*es])
		}
		sort.Strings(gs)
		sort.Strings(ws)
		for i := range gs {
			if gs[i] != ws[i] {
				return fmt.Errorf("multisets differ (sorted element %d: got %s, want %s)", i, format(base, []byte(gs[i])), format(base, []byte(ws[i])))
			}
		}
	case "ulp":
		for i := 0; i < n; i++ {
			bound := c.ULP
			if len(c.SlotULP) > 0 {
				bound = c.SlotULP[i%len(c.SlotULP)]
			}
			g, w := got[i*es:(i+1)*es], want[i*es:(i+1)*es]
			d, err := ulpDiff(base, g, w)
			if err != nil {
				return err
			}
			if d > uint64(bound) {
				return fmt.Errorf("element %d: got %s, want %s (%d ulp apart, bound %d)", i, format(base, g), format(base, w), d, bound)
			}
		}
	default:
		return fmt.Errorf("corpus: unknown comparison %q", c.Compare)
	}
	return nil
}

// ordered maps float bits onto integers whose difference counts ULPs.
func ordered(bits uint64, signBit uint64) int64 {
	if bits&signBit != 0 {
		return -int64(bits &^ signBit)
	}
	return int64(bits)
}

func ulpDiff(base string, g, w []byte) (uint64, error) {
	var gb, wb, sign uint64
	var gnan, wnan bool
	switch base {
	case "float":
		gb, wb, sign = uint64(binary.LittleEndian.Uint32(g)), uint64(binary.LittleEndian.Uint32(w)), 1<<31
		gnan = math.IsNaN(float64(math.Float32frombits(uint32(gb))))
		wnan = math.IsNaN(float64(math.Float32frombits(uint32(wb))))
	case "double":
		gb, wb, sign = binary.LittleEndian.Uint64(g), binary.LittleEndian.Uint64(w), 1<<63
		gnan, wnan = math.IsNaN(math.Float64frombits(gb)), math.IsNaN(math.Float64frombits(wb))
	case "half":
		gb, wb, sign = uint64(binary.LittleEndian.Uint16(g)), uint64(binary.LittleEndian.Uint16(w)), 1<<15
		gnan = gb&0x7C00 == 0x7C00 && gb&0x3FF != 0
		wnan = wb&0x7C00 == 0x7C00 && wb&0x3FF != 0
	default:
		return 0, fmt.Errorf("corpus: ulp comparison of non-float type %q", base)
	}
	if gnan || wnan {
		if gnan && wnan {
			return 0, nil
		}
		return math.MaxUint64, nil
	}
	d := ordered(gb, sign) - ordered(wb, sign)
	if d < 0 {
		d = -d
	}
	return uint64(d), nil
}

func format(base string, b []byte) string {
	switch base {
	case "float":
		u := binary.LittleEndian.Uint32(b)
		return fmt.Sprintf("%g (0x%08x)", math.Float32frombits(u), u)
	case "double":
		u := binary.LittleEndian.Uint64(b)
		return fmt.Sprintf("%g (0x%016x)", math.Float64frombits(u), u)
	case "half":
		u := binary.LittleEndian.Uint16(b)
		return fmt.Sprintf("%g (0x%04x)", HalfToFloat32(u), u)
	case "char":
		return fmt.Sprint(int8(b[0]))
	case "uchar":
		return fmt.Sprint(b[0])
	case "short":
		return fmt.Sprint(int16(binary.LittleEndian.Uint16(b)))
	case "ushort":
		return fmt.Sprint(binary.LittleEndian.Uint16(b))
	case "int":
		u := binary.LittleEndian.Uint32(b)
		return fmt.Sprintf("%d (0x%08x)", int32(u), u)
	case "uint":
		return fmt.Sprint(binary.LittleEndian.Uint32(b))
	case "long":
		u := binary.LittleEndian.Uint64(b)
		return fmt.Sprintf("%d (0x%016x)", int64(u), u)
	case "ulong":
		return fmt.Sprint(binary.LittleEndian.Uint64(b))
	}
	return hex.EncodeToString(b)
}

// VerifyPrintf checks what a kernel printed against the manifest's Printf
// lines, in any order (work-items print concurrently).
func VerifyPrintf(k *Kernel, stdout []byte) error {
	got := strings.Split(strings.TrimRight(string(stdout), "\n"), "\n")
	if len(stdout) == 0 {
		got = nil
	}
	want := append([]string(nil), k.Printf...)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("%s printed (sorted):\n%s\nwant (sorted):\n%s", k.Name, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return nil
}
