package codeobject

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

var writeCorrupt = flag.Bool("write-corrupt", false, "regenerate testdata/corrupt from testdata/kernels.gfx90a.co4.hsaco")

// corruption is one damaged copy of a good object and where the error must
// point: the offset of the field that was damaged.
type corruption struct {
	name string
	off  int64  // expected FormatError offset
	msg  string // expected substring of the message
	data []byte
}

func makeCorruptions(t *testing.T) []corruption {
	good := readTestdata(t, "kernels.gfx90a.co4.hsaco")
	f, err := Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	clone := func() []byte { b := make([]byte, len(good)); copy(b, good); return b }
	sec := func(name string) *Section {
		s := f.Section(name)
		if s == nil {
			t.Fatalf("no %s", name)
		}
		return s
	}
	var out []corruption
	note := sec(".note")
	add := func(name string, off int64, msg string, b []byte) {
		out = append(out, corruption{name, off, msg, b})
	}

	add("truncated-ident", 0, "too short", good[:12])
	add("truncated-header", 0, "too short for an ELF64 header", good[:40])
	add("truncated-section-table", 40, "section header 0", good[:f.Shoff+10])

	b := clone()
	le.PutUint64(b[32:], 0xffffffffffff0000)
	add("phoff-past-end", 32, "program header table", b)

	b = clone()
	le.PutUint16(b[60:], 0xffff)
	add("shnum-huge", int64(f.Shoff), "cannot fit", b)

	b = clone()
	le.PutUint16(b[60:], 0)
	le.PutUint64(b[f.Shoff+32:], 1<<40)
	add("shnum-extended-huge", int64(f.Shoff), "cannot fit", b)

	b = clone()
	le.PutUint16(b[62:], 200)
	add("missing-shstrtab", 62, "e_shstrndx", b)

	b = clone()
	symtab := sec(".symtab")
	le.PutUint16(b[62:], uint16(symtab.Index))
	add("shstrtab-not-strtab", symtab.HeaderOff+4, "not SHT_STRTAB", b)

	b = clone()
	le.PutUint32(b[symtab.HeaderOff+40:], uint32(symtab.Index))
	add("symtab-links-itself", symtab.HeaderOff+40, "string table link", b)

	b = clone()
	strtab := f.Sections[symtab.Link]
	le.PutUint32(b[strtab.HeaderOff+4:], uint32(1)) // SHT_PROGBITS
	add("symtab-strtab-wrong-type", symtab.HeaderOff+40, "not SHT_STRTAB", b)

	// A cycle: .symtab names .dynsym as its string table and .dynsym
	// names .symtab; neither is a string table.
	b = clone()
	dynsym := sec(".dynsym")
	le.PutUint32(b[symtab.HeaderOff+40:], uint32(dynsym.Index))
	le.PutUint32(b[dynsym.HeaderOff+40:], uint32(symtab.Index))
	add("symtab-strtab-cycle", symtab.HeaderOff+40, "not SHT_STRTAB", b)

	b = clone()
	le.PutUint32(b[symtab.HeaderOff+40:], 200)
	add("symtab-strtab-missing", symtab.HeaderOff+40, "string table link", b)

	b = clone()
	le.PutUint64(b[symtab.HeaderOff+32:], 24<<36) // sh_size: 2^36 symbols
	add("symtab-size-huge", symtab.HeaderOff+24, "outside", b)

	// Overlapping sections parse; Validate reports the overlap at the
	// moved section's sh_offset.
	b = clone()
	comment := sec(".comment")
	le.PutUint64(b[comment.HeaderOff+24:], note.Offset+8)
	add("sections-overlap", comment.HeaderOff+24, "§1.5 section-overlap", b)

	b = clone()
	sym1 := int64(symtab.Offset) + symSize
	le.PutUint32(b[sym1:], 0x7fffffff)
	add("symbol-name-past-strtab", sym1, "past the end", b)

	b = clone()
	le.PutUint64(b[note.HeaderOff+24:], 1<<62)
	add("note-offset-past-end", note.HeaderOff+24, "outside", b)

	b = clone()
	le.PutUint64(b[note.HeaderOff+32:], 1<<40)
	add("note-size-past-end", note.HeaderOff+24, "outside", b)

	b = clone()
	le.PutUint32(b[note.Offset+4:], 0xfffffffc) // descsz: name+desc wraps a 32-bit sum
	add("note-descsz-wraps", int64(note.Offset), "runs past the end", b)

	b = clone()
	le.PutUint32(b[note.Offset:], 0xffffffff) // namesz
	add("note-namesz-wraps", int64(note.Offset), "runs past the end", b)

	notes, _ := f.Notes()
	md := notes[0]
	b = clone()
	b[md.DescOff] = 0xdf // map32 with a huge count read from the next bytes
	add("metadata-map-count-huge", -1, "MessagePack", b)

	b = clone()
	b[md.DescOff] = 0xc1 // never-used type byte
	add("metadata-bad-type-byte", md.DescOff, "invalid MessagePack type", b)

	b = clone()
	le.PutUint32(b[md.Off+4:], uint32(len(md.Desc)-40)) // cut the document short
	le.PutUint64(b[note.HeaderOff+32:], note.Size-40)   // and the section with it
	add("metadata-truncated", -1, "truncated MessagePack", b)

	ks, _ := f.Kernels()
	b = clone()
	kd := ks[0].DescriptorSymbol
	le.PutUint64(b[kd.Off+16:], 1<<50)
	add("kd-symbol-size-huge", kd.Off+16, "outside its section", b)

	b = clone()
	le.PutUint64(b[kd.Off+8:], 1<<63)
	add("kd-symbol-value-past-section", kd.Off+16, "outside its section", b)
	return out
}

// firstError parses b and calls the accessors in a fixed order, returning
// the first error.
func firstError(b []byte) error {
	f, err := Parse(b)
	if err != nil {
		return err
	}
	if _, err := f.Notes(); err != nil {
		return err
	}
	if _, err := f.Symbols(); err != nil {
		return err
	}
	if _, err := f.Metadata(); err != nil {
		return err
	}
	if _, err := f.Kernels(); err != nil {
		return err
	}
	// What parses but breaks a rule (overlapping sections): the first
	// error finding, as a FormatError naming the rule.
	for _, fd := range f.Validate() {
		if fd.Severity == SeverityError {
			return &FormatError{Off: fd.Off, Msg: fd.Rule + ": " + fd.Msg}
		}
	}
	return nil
}

func TestCorruptFiles(t *testing.T) {
	dir := "testdata/corrupt"
	if *writeCorrupt {
		os.MkdirAll(dir, 0o755)
		var idx strings.Builder
		made := map[string]bool{}
		for _, c := range makeCorruptions(t) {
			made[c.name] = true
			if err := os.WriteFile(filepath.Join(dir, c.name+".hsaco"), c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&idx, "%s %d %s\n", c.name, c.off, c.msg)
		}
		// Keep the entries for files found by fuzzing, which are not
		// generated.
		old, _ := os.ReadFile(filepath.Join(dir, "expected.txt"))
		for _, l := range strings.Split(strings.TrimSpace(string(old)), "\n") {
			if name, _, _ := strings.Cut(l, " "); name != "" && !made[name] {
				idx.WriteString(l + "\n")
			}
		}
		os.WriteFile(filepath.Join(dir, "expected.txt"), []byte(idx.String()), 0o644)
	}
	fh, err := os.Open(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	n := 0
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), " ")
		offs, msg, _ := strings.Cut(rest, " ")
		want, _ := strconv.ParseInt(offs, 10, 64)
		b, err := os.ReadFile(filepath.Join(dir, name+".hsaco"))
		if err != nil {
			t.Fatal(err)
		}
		n++
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		err = firstError(b)
		runtime.ReadMemStats(&m1)
		// Everything parsed and validated on the way, not one allocation:
		// a forged count or size must never be allocated for.
		if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 64*uint64(len(b))+64<<10 {
			t.Errorf("%s: %d bytes allocated for a %d-byte file", name, grew, len(b))
		}
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: got %v, want a FormatError", name, err)
			continue
		}
		if (want >= 0 && fe.Off != want) || (want < 0 && (fe.Off < 0 || fe.Off >= int64(len(b)))) || !strings.Contains(fe.Msg, msg) {
			t.Errorf("%s: %v; want offset %d and %q", name, err, want, msg)
		}
		// Whatever is wrong, Validate reports it instead of panicking.
		if f, err := Parse(b); err == nil {
			if !HasErrors(f.Validate()) {
				t.Errorf("%s: Validate finds no error", name)
			}
		}
	}
	if n < 15 {
		t.Errorf("only %d corrupt files", n)
	}
}

// TestMsgPackForgedLengths: a string or binary header announcing more
// bytes than the document has fails at once, without the multi-gigabyte
// allocation the msgpack library would make for it (found by FuzzNewFile).
func TestMsgPackForgedLengths(t *testing.T) {
	for _, doc := range [][]byte{
		{0x91, 0xdb, 0xff, 0xff, 0xff, 0xf0, 'x'},       // [str32 of 4 GiB]
		{0x81, 0xa1, 'k', 0xc6, 0x7f, 0xff, 0xff, 0xff}, // {k: bin32 of 2 GiB}
		{0xda, 0xff, 0xff},                              // str16 of 64 KiB
		{0xd9},                                          // str8 without its length
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := DecodeMsgPack(doc)
		runtime.ReadMemStats(&after)
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("% x: %v, want a FormatError", doc, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
			t.Errorf("% x: allocated %d bytes", doc, grew)
		}
	}
}
