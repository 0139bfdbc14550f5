package corpus

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ElemSize returns the size in bytes of one element of an OpenCL scalar or
// vector type name ("float", "int2", "half", ...).
func ElemSize(typ string) (int, error) {
	base, n, err := splitVector(typ)
	if err != nil {
		return 0, err
	}
	s, ok := scalarSize[base]
	if !ok {
		return 0, fmt.Errorf("corpus: unknown type %q", typ)
	}
	return s * n, nil
}

var scalarSize = map[string]int{
	"char": 1, "uchar": 1, "short": 2, "ushort": 2, "half": 2,
	"int": 4, "uint": 4, "float": 4, "long": 8, "ulong": 8, "double": 8,
}

// splitVector splits "float4" into ("float", 4). OpenCL vectors of 3 are
// stored as 4.
func splitVector(typ string) (string, int, error) {
	i := len(typ)
	for i > 0 && typ[i-1] >= '0' && typ[i-1] <= '9' {
		i--
	}
	if i == len(typ) {
		return typ, 1, nil
	}
	n, err := strconv.Atoi(typ[i:])
	if err != nil || (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) {
		return "", 0, fmt.Errorf("corpus: bad vector type %q", typ)
	}
	if n == 3 {
		n = 4
	}
	return typ[:i], n, nil
}

// rng is splitmix64: tiny, fast and fully specified, so any implementation
// (Go tests, the emulator's launcher) reproduces the same inputs.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// unit returns a uniform float64 in [0, 1).
func (r *rng) unit() float64 { return float64(r.next()>>11) / (1 << 53) }

// specials are the values the "special" generator cycles through before
// switching to uniform values.
var specials = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	math.MaxFloat32, -math.MaxFloat32, 2147483648, -2147483648, 2147483520,
	-2147483904, 4294967296, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 255.5, 256,
	-128.5, -129, 65535.5, 32767.5, -32768.5, 1e10, -1e10, 1e-3, 0.49999997,
	8388609, 16777217, 3.4e38,
}

// Fill generates count elements of type typ (a scalar or vector type; each
// vector component counts as its own element in the sequence).
func (g *Gen) Fill(typ string, count int) ([]byte, error) {
	base, lanes, err := splitVector(typ)
	if err != nil {
		return nil, err
	}
	es, ok := scalarSize[base]
	if !ok {
		return nil, fmt.Errorf("corpus: unknown type %q", typ)
	}
	n := count * lanes
	out := make([]byte, n*es)
	if g == nil {
		return out, nil
	}
	r := rng{s: g.Seed}
	for i := 0; i < n; i++ {
		var v float64
		var bits uint64
		useBits := false
		switch g.Kind {
		case "zero":
			v = 0
		case "const":
			v = g.Value
		case "iota":
			v = g.Min + float64(i)
		case "int":
			span := uint64(int64(g.Max)-int64(g.Min)) + 1
			v = float64(int64(g.Min) + int64(r.next()%span))
		case "float":
			for {
				v = g.Min + (g.Max-g.Min)*r.unit()
				if math.Abs(v) >= 1.0/1024 {
					break
				}
			}
		case "special":
			if i < len(specials) {
				v = specials[i]
			} else {
				v = g.Min + (g.Max-g.Min)*r.unit()
			}
		case "bits":
			bits, useBits = r.next(), true
		case "list":
			if len(g.List) == 0 {
				return nil, fmt.Errorf("corpus: empty list generator")
			}
			t := strings.TrimSpace(g.List[i%len(g.List)])
			if base == "float" || base == "double" || base == "half" {
				f, err := strconv.ParseFloat(t, 64)
				if err != nil {
					return nil, fmt.Errorf("corpus: list value %q: %w", t, err)
				}
				v = f
				break
			}
			n, err := strconv.ParseInt(t, 0, 64)
			if err != nil {
				u, uerr := strconv.ParseUint(t, 0, 64)
				if uerr != nil {
					return nil, fmt.Errorf("corpus: list value %q: %w", t, err)
				}
				n = int64(u)
			}
			bits, useBits = uint64(n), true
		default:
			return nil, fmt.Errorf("corpus: unknown generator %q", g.Kind)
		}
		p := out[i*es:]
		if useBits {
			putBits(p, es, bits)
			continue
		}
		switch base {
		case "float":
			binary.LittleEndian.PutUint32(p, math.Float32bits(float32(v)))
		case "double":
			binary.LittleEndian.PutUint64(p, math.Float64bits(v))
		case "half":
			binary.LittleEndian.PutUint16(p, Float32ToHalf(float32(v)))
		default:
			putBits(p, es, uint64(int64(v)))
		}
	}
	return out, nil
}

func putBits(p []byte, size int, v uint64) {
	switch size {
	case 1:
		p[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(p, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(p, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(p, v)
	}
}

// ScalarBytes encodes a scalar or vector argument's Value ("2.5",
// "1,2,3,4") as its kernarg bytes.
func ScalarBytes(typ, value string) ([]byte, error) {
	base, lanes, err := splitVector(typ)
	if err != nil {
		return nil, err
	}
	es, ok := scalarSize[base]
	if !ok {
		return nil, fmt.Errorf("corpus: unknown scalar type %q", typ)
	}
	parts := strings.Split(value, ",")
	if len(parts) == 1 && lanes > 1 {
		for len(parts) < lanes {
			parts = append(parts, parts[0])
		}
	}
	if len(parts) != lanes && !(lanes == 4 && len(parts) == 3) {
		return nil, fmt.Errorf("corpus: value %q does not fit %s", value, typ)
	}
	out := make([]byte, es*lanes)
	for i, s := range parts {
		s = strings.TrimSpace(s)
		p := out[i*es:]
		switch base {
		case "float", "double", "half":
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("corpus: value %q: %w", value, err)
			}
			switch base {
			case "float":
				binary.LittleEndian.PutUint32(p, math.Float32bits(float32(f)))
			case "double":
				binary.LittleEndian.PutUint64(p, math.Float64bits(f))
			default:
				binary.LittleEndian.PutUint16(p, Float32ToHalf(float32(f)))
			}
		default:
			n, err := strconv.ParseInt(s, 0, 64)
			if err != nil {
				u, uerr := strconv.ParseUint(s, 0, 64)
				if uerr != nil {
					return nil, fmt.Errorf("corpus: value %q: %w", value, err)
				}
				n = int64(u)
			}
			putBits(p, es, uint64(n))
		}
	}
	return out, nil
}

// Float32ToHalf converts to IEEE binary16 with round-to-nearest-even.
func Float32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int((b >> 23) & 0xFF)
	man := b & 0x7FFFFF
	if exp == 0xFF {
		if man != 0 {
			return sign | 0x7E00
		}
		return sign | 0x7C00
	}
	e := exp - 127 + 15
	if e >= 0x1F {
		return sign | 0x7C00
	}
	if e <= 0 {
		if e < -10 {
			return sign
		}
		man |= 0x800000
		shift := uint(14 - e)
		h := man >> shift
		rem := man & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | man>>13
	rem := man & 0x1FFF
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, which is still correct
	}
	return sign | uint16(h)
}

// HalfToFloat32 converts IEEE binary16 to float32 (exactly).
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1F
	man := uint32(h & 0x3FF)
	switch {
	case exp == 0x1F:
		return math.Float32frombits(sign | 0x7F800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(man) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}
