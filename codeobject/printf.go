package codeobject

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file decodes the OpenCL printf buffer (INVENTORY §2.7) that code
// compiled by LLVM's AMDGPUPrintfRuntimeBinding pass fills, and formats each
// record as C printf would.
//
// Buffer layout (device-libs __printf_alloc, the buffer being the
// hidden_printf_buffer argument):
//
//	offset 0: uint32 bytes used after the 8-byte header (atomically advanced)
//	offset 4: uint32 buffer size, header included (a record that would end
//	          past it is not written)
//	offset 8: records, back to back: uint32 printf ID, then each argument's
//	          bytes, as many as the descriptor's S[i], unaligned, little-endian.
//
// Argument encoding (observed from LLVM 15's pass): integers and %c take 4
// bytes (8 for long), a promoted float is usually stored as a 4-byte float
// and doubles as 8 bytes, %p takes 8, a constant %s string is stored inline
// NUL-terminated and padded to a multiple of 4 ("???" for a non-constant
// string), and a vector is stored whole (a 3-vector as 4 elements).

// PrintfHeaderSize is the size of the printf buffer header.
const PrintfHeaderSize = 8

// PrintfFormat is one printf descriptor "ID:N:S[0]:...:S[N-1]:Format".
type PrintfFormat struct {
	ID uint32
	// NumArgs is N, the number of arguments after the format string.
	NumArgs int
	// ArgSizes are the argument sizes the descriptor lists. LLVM 15 lists
	// fewer than NumArgs when the format uses %F, %A or a '*' width or
	// precision, which its pass does not count; only the listed arguments,
	// the first ones, are in the buffer.
	ArgSizes []uint32
	// Format is the format string with LLVM's escapes undone: \72 is ':',
	// and \a \b \f \n \r \v are the control characters. LLVM does not escape
	// a backslash, so a literal backslash followed by one of those letters
	// or by "72" cannot be told apart from an escape; it is read as one.
	Format string
	// Raw is the descriptor as the metadata holds it.
	Raw string
}

// RecordSize is the size of one buffer record for this format.
func (f *PrintfFormat) RecordSize() uint64 {
	n := uint64(4)
	for _, s := range f.ArgSizes {
		n += uint64(s)
	}
	return n
}

// maxPrintfArgs bounds N; LLVM's formats have at most a few dozen.
const maxPrintfArgs = 1 << 12

// ParsePrintfFormat parses one descriptor. Sizes are read while the fields
// are decimal numbers, up to N of them; the rest is the format, which may
// contain ':'.
func ParsePrintfFormat(desc string) (*PrintfFormat, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("codeobject: printf descriptor %q: %s", truncate(desc, 60), fmt.Sprintf(format, a...))
	}
	fields := strings.SplitN(desc, ":", 3)
	if len(fields) < 3 {
		return nil, bad("want ID:N:sizes:format")
	}
	id, err := strconv.ParseUint(fields[0], 10, 32)
	if err != nil {
		return nil, bad("ID %q is not a 32-bit number", fields[0])
	}
	n, err := strconv.ParseUint(fields[1], 10, 32)
	if err != nil || n > maxPrintfArgs {
		return nil, bad("argument count %q is not a number up to %d", fields[1], maxPrintfArgs)
	}
	f := &PrintfFormat{ID: uint32(id), NumArgs: int(n), Raw: desc}
	rest := fields[2]
	for len(f.ArgSizes) < f.NumArgs {
		tok, tail, ok := strings.Cut(rest, ":")
		if !ok || !isDecimal(tok) {
			break
		}
		s, err := strconv.ParseUint(tok, 10, 32)
		if err != nil || s == 0 || s > 1<<16 {
			return nil, bad("argument size %q is not between 1 and 65536", tok)
		}
		f.ArgSizes = append(f.ArgSizes, uint32(s))
		rest = tail
	}
	f.Format = unescapePrintf(rest)
	return f, nil
}

func isDecimal(s string) bool {
	if s == "" || len(s) > 10 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// unescapePrintf undoes the escaping LLVM applies to printf format strings
// in metadata (AMDGPUPrintfRuntimeBinding: \a \b \f \n \r \v, ':' as \72).
func unescapePrintf(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		switch s[i+1] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case '7':
			if i+2 < len(s) && s[i+2] == '2' {
				b.WriteByte(':')
				i += 2
				continue
			}
			b.WriteByte(c)
			continue
		default:
			b.WriteByte(c)
			continue
		}
		i++
	}
	return b.String()
}

// PrintfFormats are a code object's printf descriptors by ID.
type PrintfFormats map[uint32]*PrintfFormat

// ParsePrintfFormats parses the metadata's printf strings (V2 Printf or
// V3+ amdhsa.printf; the syntax is the same). IDs must be unique.
func ParsePrintfFormats(descs []string) (PrintfFormats, error) {
	out := make(PrintfFormats, len(descs))
	for _, d := range descs {
		f, err := ParsePrintfFormat(d)
		if err != nil {
			return nil, err
		}
		if _, dup := out[f.ID]; dup {
			return nil, fmt.Errorf("codeobject: printf ID %d is listed twice", f.ID)
		}
		out[f.ID] = f
	}
	return out, nil
}

// PrintfFormats parses the metadata's printf descriptors.
func (md *Metadata) PrintfFormats() (PrintfFormats, error) { return ParsePrintfFormats(md.Printf) }

// PrintfRecord is one printf call found in a buffer.
type PrintfRecord struct {
	// Off is the record's offset in the buffer (header included).
	Off    int64
	Format *PrintfFormat
	// Args are the argument bytes, one slice per listed size (aliasing the
	// buffer).
	Args [][]byte
}

// Text formats the record as C printf would.
func (r *PrintfRecord) Text() (string, error) {
	s, err := FormatPrintf(r.Format.Format, r.Args)
	if err != nil && r.Format.NumArgs > len(r.Format.ArgSizes) && errors.Is(err, errPrintfMissingArg) {
		err = fmt.Errorf("%w (the descriptor says %d arguments but lists %d: LLVM 15 stores one argument per conversion it knows, and it knows neither %%F, %%A nor '*')", err, r.Format.NumArgs, len(r.Format.ArgSizes))
	}
	if err != nil {
		err = fmt.Errorf("printf %d at buffer offset %#x: %w", r.Format.ID, r.Off, err)
	}
	return s, err
}

// InitPrintfBuffer writes the header of an empty printf buffer: nothing
// used, and the buffer's size (at most 4 GiB - 1 is representable; a larger
// slice is described as that).
func InitPrintfBuffer(buf []byte) {
	if len(buf) < PrintfHeaderSize {
		return
	}
	size := uint64(len(buf))
	if size > math.MaxUint32 {
		size = math.MaxUint32
	}
	binary.LittleEndian.PutUint32(buf[0:], 0)
	binary.LittleEndian.PutUint32(buf[4:], uint32(size))
}

// DecodePrintfBuffer splits a printf buffer into its records. Records found
// before an error are returned with it. Errors are *FormatError with the
// offset of the bad header or record: a used count past the buffer, an ID
// with no descriptor, a record cut short.
func DecodePrintfBuffer(buf []byte, formats PrintfFormats) ([]PrintfRecord, error) {
	if len(buf) < PrintfHeaderSize {
		return nil, formatErr(0, "printf buffer of %d bytes has no header", len(buf))
	}
	used := uint64(binary.LittleEndian.Uint32(buf))
	if used > uint64(len(buf))-PrintfHeaderSize {
		return nil, formatErr(0, "printf buffer says %d bytes are used, it has %d after its header", used, len(buf)-PrintfHeaderSize)
	}
	end := PrintfHeaderSize + used
	var out []PrintfRecord
	for off := uint64(PrintfHeaderSize); off < end; {
		if end-off < 4 {
			return out, formatErr(int64(off), "printf record of %d bytes is shorter than its ID", end-off)
		}
		id := binary.LittleEndian.Uint32(buf[off:])
		f := formats[id]
		if f == nil {
			return out, formatErr(int64(off), "printf ID %d has no descriptor in the metadata", id)
		}
		if n := f.RecordSize(); n > end-off {
			return out, formatErr(int64(off), "printf %d record needs %d bytes, %d are left", id, n, end-off)
		}
		r := PrintfRecord{Off: int64(off), Format: f, Args: make([][]byte, len(f.ArgSizes))}
		p := off + 4
		for i, s := range f.ArgSizes {
			r.Args[i] = buf[p : p+uint64(s) : p+uint64(s)]
			p += uint64(s)
		}
		out = append(out, r)
		off = p
	}
	return out, nil
}

// PrintfOutput decodes a printf buffer and returns what the kernel printed,
// in buffer order. On error the text of the records before the bad one is
// returned with it.
func PrintfOutput(buf []byte, formats PrintfFormats) (string, error) {
	recs, err := DecodePrintfBuffer(buf, formats)
	var b strings.Builder
	for i := range recs {
		s, ferr := recs[i].Text()
		b.WriteString(s)
		if ferr != nil {
			return b.String(), fmt.Errorf("codeobject: %w", ferr)
		}
	}
	return b.String(), err
}

var errPrintfMissingArg = errors.New("no argument data for a conversion")

// printfSpec is one parsed conversion specification.
type printfSpec struct {
	minus, plus, space, hash, zero bool
	width                          int // -1 if none
	prec                           int // -1 if none
	vec                            int // OpenCL vector length, 0 for scalars
	length                         string
	conv                           byte
	ptr                            bool // %p: hex with 0x, and glibc's + and space
}

// FormatPrintf formats args (each one argument's bytes as the device stored
// it) with a C / OpenCL printf format string. The conversions are
// d i u x X o c s f F e E g G a A p and %%, with the flags - + space # 0,
// width and precision (numbers or *), the length modifiers hh h l ll (and
// OpenCL's hl), and OpenCL vectors %vN (N = 2, 3, 4, 8, 16; elements joined
// by ','). Other conversions and modifiers (%n, %ls, %zd, %Lf, ...) return
// an error wrapping ErrNotSupported that names them. The text formatted
// before an error is returned with it.
func FormatPrintf(format string, args [][]byte) (string, error) {
	var b strings.Builder
	next := 0
	arg := func(what string) ([]byte, error) {
		if next >= len(args) {
			return nil, fmt.Errorf("%w: %s (argument %d)", errPrintfMissingArg, what, next+1)
		}
		a := args[next]
		next++
		return a, nil
	}
	for i := 0; i < len(format); {
		c := format[i]
		if c != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				j = len(format) - i
			}
			b.WriteString(format[i : i+j])
			i += j
			continue
		}
		start := i
		i++
		if i < len(format) && format[i] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		sp := printfSpec{width: -1, prec: -1}
	flags:
		for ; i < len(format); i++ {
			switch format[i] {
			case '-':
				sp.minus = true
			case '+':
				sp.plus = true
			case ' ':
				sp.space = true
			case '#':
				sp.hash = true
			case '0':
				sp.zero = true
			default:
				break flags
			}
		}
		if i < len(format) && format[i] == '*' {
			i++
			a, err := arg("'*' width")
			if err != nil {
				return b.String(), err
			}
			w := int32(readUint(a))
			if w < 0 {
				sp.minus = true
				w = -w
			}
			sp.width = int(w)
		} else {
			sp.width, i = readNum(format, i, -1)
		}
		if i < len(format) && format[i] == '.' {
			i++
			if i < len(format) && format[i] == '*' {
				i++
				a, err := arg("'*' precision")
				if err != nil {
					return b.String(), err
				}
				if p := int32(readUint(a)); p >= 0 {
					sp.prec = int(p)
				}
			} else {
				sp.prec, i = readNum(format, i, 0)
			}
		}
		if i < len(format) && format[i] == 'v' {
			i++
			sp.vec, i = readNum(format, i, 0)
			if sp.vec != 2 && sp.vec != 3 && sp.vec != 4 && sp.vec != 8 && sp.vec != 16 {
				return b.String(), notSupported("printf vector length %d in %q", sp.vec, format[start:min(i, len(format))])
			}
		}
		for _, l := range []string{"hh", "hl", "h", "ll", "l"} {
			if strings.HasPrefix(format[i:], l) {
				sp.length = l
				i += len(l)
				break
			}
		}
		if i >= len(format) {
			return b.String(), fmt.Errorf("codeobject: printf format ends inside the conversion %q", format[start:])
		}
		sp.conv = format[i]
		i++
		spec := format[start:i]
		if !strings.ContainsRune("diuxXocsfFeEgGaAp", rune(sp.conv)) {
			return b.String(), notSupported("printf conversion %q", spec)
		}
		if sp.length != "" && (sp.conv == 'c' || sp.conv == 's' || sp.conv == 'p') {
			return b.String(), notSupported("printf conversion %q (wide characters and strings)", spec)
		}
		if sp.length == "hl" && sp.vec == 0 {
			return b.String(), notSupported("printf length modifier hl without a vector in %q", spec)
		}
		if sp.vec != 0 && (sp.conv == 'c' || sp.conv == 's' || sp.conv == 'p') {
			return b.String(), notSupported("printf vector conversion %q", spec)
		}
		a, err := arg(fmt.Sprintf("%q", spec))
		if err != nil {
			return b.String(), err
		}
		s, err := sp.format(a)
		if err != nil {
			return b.String(), fmt.Errorf("%q: %w", spec, err)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// readNum reads a decimal number at s[i:]; def if there is none. Values are
// capped so a hostile width cannot make the output huge.
func readNum(s string, i, def int) (int, int) {
	j := i
	n := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		if n < 1<<20 {
			n = n*10 + int(s[j]-'0')
		}
		j++
	}
	if j == i {
		return def, i
	}
	return n, j
}

// maxPrintfField caps widths and precisions (C's are int; glibc fails above
// INT_MAX). Larger requests are cut to this many characters.
const maxPrintfField = 1 << 16

func readUint(a []byte) uint64 {
	var x [8]byte
	copy(x[:], a)
	return binary.LittleEndian.Uint64(x[:])
}

func (sp *printfSpec) format(a []byte) (string, error) {
	sp.width = min(sp.width, maxPrintfField)
	sp.prec = min(sp.prec, maxPrintfField)
	if sp.vec == 0 {
		return sp.scalar(a)
	}
	stored := sp.vec
	if stored == 3 {
		stored = 4
	}
	if len(a)%stored != 0 {
		return "", fmt.Errorf("a %d-byte argument is not %d elements", len(a), stored)
	}
	es := len(a) / stored
	parts := make([]string, sp.vec)
	for e := range parts {
		s, err := sp.scalar(a[e*es : (e+1)*es])
		if err != nil {
			return "", err
		}
		parts[e] = s
	}
	return strings.Join(parts, ","), nil
}

func (sp *printfSpec) scalar(a []byte) (string, error) {
	switch sp.conv {
	case 'd', 'i', 'u', 'x', 'X', 'o':
		if len(a) != 1 && len(a) != 2 && len(a) != 4 && len(a) != 8 {
			return "", fmt.Errorf("an integer of %d bytes", len(a))
		}
		return sp.integer(readUint(a), len(a)), nil
	case 'c':
		s := string([]byte{byte(readUint(a))})
		return sp.pad(s, false), nil
	case 's':
		s := a
		if n := indexByte(s, 0); n >= 0 {
			s = s[:n]
		}
		if sp.prec >= 0 && sp.prec < len(s) {
			s = s[:sp.prec]
		}
		return sp.pad(string(s), false), nil
	case 'p':
		x := readUint(a)
		if x == 0 {
			return sp.pad("(nil)", false), nil
		}
		q := *sp
		q.conv, q.hash, q.length, q.ptr = 'x', true, "l", true
		return q.integer(x, 8), nil
	default:
		var f float64
		switch len(a) {
		case 2:
			f = halfToFloat64(uint16(readUint(a)))
		case 4:
			f = float64(math.Float32frombits(uint32(readUint(a))))
		case 8:
			f = math.Float64frombits(readUint(a))
		default:
			return "", fmt.Errorf("a floating-point value of %d bytes", len(a))
		}
		return sp.float(f), nil
	}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// integer formats x, which the device stored in size bytes, after C's
// conversion to the type the length modifier names.
func (sp *printfSpec) integer(x uint64, size int) string {
	bits := 32
	switch sp.length {
	case "hh":
		bits = 8
	case "h":
		bits = 16
	case "hl":
		bits = 32
	case "l", "ll":
		bits = 64
	}
	if sp.vec != 0 && sp.length == "" {
		bits = 8 * size // OpenCL requires a modifier; take the element size
	}
	if bits < 64 {
		x &= 1<<bits - 1
	}
	neg := false
	if sp.conv == 'd' || sp.conv == 'i' {
		if bits < 64 && x>>(bits-1) != 0 {
			x = -(x | ^uint64(0)<<bits) // sign-extend, then magnitude
			neg = true
		} else if bits == 64 && int64(x) < 0 {
			x = -x
			neg = true
		}
	}
	base := 10
	switch sp.conv {
	case 'x', 'X':
		base = 16
	case 'o':
		base = 8
	}
	digits := strconv.FormatUint(x, base)
	if sp.conv == 'X' {
		digits = strings.ToUpper(digits)
	}
	if sp.prec == 0 && x == 0 {
		digits = ""
	}
	if sp.prec > len(digits) {
		digits = strings.Repeat("0", sp.prec-len(digits)) + digits
	}
	prefix := ""
	switch {
	case sp.conv == 'o' && sp.hash && (digits == "" || digits[0] != '0'):
		digits = "0" + digits
	case (sp.conv == 'x' || sp.conv == 'X') && sp.hash && x != 0:
		prefix = "0" + string(sp.conv)
		if sp.ptr {
			prefix = sp.sign(false) + prefix
		}
	case sp.conv == 'd' || sp.conv == 'i':
		prefix = sp.sign(neg)
	}
	return sp.padNumber(prefix, digits, sp.prec < 0)
}

func (sp *printfSpec) sign(neg bool) string {
	switch {
	case neg:
		return "-"
	case sp.plus:
		return "+"
	case sp.space:
		return " "
	}
	return ""
}

// padNumber applies the width: zeros after the sign and prefix when the 0
// flag applies, else spaces on the left (or right with -).
func (sp *printfSpec) padNumber(prefix, digits string, zeroOK bool) string {
	n := len(prefix) + len(digits)
	if sp.width <= n {
		return prefix + digits
	}
	fill := sp.width - n
	switch {
	case sp.minus:
		return prefix + digits + strings.Repeat(" ", fill)
	case sp.zero && zeroOK:
		return prefix + strings.Repeat("0", fill) + digits
	}
	return strings.Repeat(" ", fill) + prefix + digits
}

func (sp *printfSpec) pad(s string, zeroOK bool) string { return sp.padNumber("", s, zeroOK) }

func (sp *printfSpec) float(f float64) string {
	upper := sp.conv == 'F' || sp.conv == 'E' || sp.conv == 'G' || sp.conv == 'A'
	neg := math.Signbit(f)
	if neg {
		f = -f
	}
	sign := sp.sign(neg)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		s := "inf"
		if math.IsNaN(f) {
			s = "nan"
		}
		if upper {
			s = strings.ToUpper(s)
		}
		return sp.padNumber(sign, s, false)
	}
	var body, prefix string
	switch sp.conv {
	case 'f', 'F':
		body = fixed(f, sp.precOr(6), sp.hash)
	case 'e', 'E':
		body = exponent(f, sp.precOr(6), sp.hash, upper)
	case 'g', 'G':
		body = general(f, sp.precOr(6), sp.hash, upper)
	case 'a', 'A':
		prefix = "0x"
		if upper {
			prefix = "0X"
		}
		body = hexFloat(f, sp.prec, sp.hash, upper)
	}
	return sp.padNumber(sign+prefix, body, true)
}

func (sp *printfSpec) precOr(def int) int {
	if sp.prec < 0 {
		return def
	}
	return sp.prec
}

// fixed is %f of a non-negative finite f: strconv rounds the exact binary
// value correctly, ties to even, as glibc does.
func fixed(f float64, prec int, hash bool) string {
	s := strconv.FormatFloat(f, 'f', prec, 64)
	if hash && prec == 0 {
		s += "."
	}
	return s
}

// exponent is %e: strconv's form with the exponent's at least two digits,
// which is C's.
func exponent(f float64, prec int, hash bool, upper bool) string {
	s := strconv.FormatFloat(f, 'e', prec, 64)
	if hash && prec == 0 {
		i := strings.IndexByte(s, 'e')
		s = s[:i] + "." + s[i:]
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// general is %g (C11 7.21.6.1): P significant digits (0 means 1); with X
// the decimal exponent after rounding to P digits, %f with precision P-1-X
// if P > X >= -4, else %e with precision P-1; trailing zeros (and a
// trailing point) removed unless #.
func general(f float64, p int, hash bool, upper bool) string {
	if p == 0 {
		p = 1
	}
	e := strconv.FormatFloat(f, 'e', p-1, 64)
	x := decimalExponent(e)
	if hash && x == p && decimalExponent(strconv.FormatFloat(f, 'e', -1, 64)) == p-1 {
		// glibc picks the style from the unrounded exponent: when rounding
		// carries into a new digit and forces the %e style, it keeps the
		// %f style's 0 fraction digits ("%#g" of 999999.5 is "1.e+06",
		// not C11's "1.00000e+06"). Without # both strip to "1e+06".
		e = strconv.FormatFloat(f, 'e', 0, 64)
	}
	var s string
	if p > x && x >= -4 {
		s = strconv.FormatFloat(f, 'f', p-1-x, 64)
		if !hash {
			s = trimZeros(s)
		} else if !strings.Contains(s, ".") {
			s += "."
		}
	} else {
		i := strings.IndexByte(e, 'e')
		mant, exp := e[:i], e[i:]
		if !hash {
			mant = trimZeros(mant)
		} else if !strings.Contains(mant, ".") {
			mant += "."
		}
		s = mant + exp
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

func decimalExponent(e string) int {
	x, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	return x
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// hexFloat is %a of a non-negative finite double, as glibc prints it: a
// leading 1 for normal numbers and 0 for subnormals (exponent -1022), the
// 52-bit fraction as 13 hex digits with trailing zeros removed when no
// precision is given, else rounded to prec digits (ties to even; a carry
// makes the leading digit 2), and the binary exponent in decimal.
func hexFloat(f float64, prec int, hash bool, upper bool) string {
	bits := math.Float64bits(f)
	exp := int(bits>>52) & 0x7ff
	frac := bits & (1<<52 - 1)
	lead := uint64(1)
	switch {
	case exp == 0 && frac == 0:
		lead, exp = 0, 0
	case exp == 0:
		lead, exp = 0, -1022
	default:
		exp -= 1023
	}
	digits := 13
	if prec >= 0 && prec < 13 {
		shift := uint(4 * (13 - prec))
		rem := frac & (1<<shift - 1)
		frac >>= shift
		half := uint64(1) << (shift - 1)
		odd := frac&1 == 1
		if prec == 0 {
			odd = lead&1 == 1
		}
		if rem > half || (rem == half && odd) {
			frac++
			if frac>>(4*uint(prec)) != 0 {
				frac &= 1<<(4*uint(prec)) - 1
				lead++
			}
		}
		digits = prec
	}
	hex := ""
	if digits > 0 {
		hex = fmt.Sprintf("%0*x", digits, frac)
	}
	if prec < 0 {
		hex = strings.TrimRight(hex, "0")
	} else if prec > 13 {
		hex += strings.Repeat("0", prec-13)
	}
	s := strconv.FormatUint(lead, 10)
	if hex != "" || hash {
		s += "." + hex
	}
	s += "p" + fmt.Sprintf("%+d", exp)
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// halfToFloat64 converts an IEEE binary16 value exactly.
func halfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.Copysign(math.NaN(), sign)
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}
