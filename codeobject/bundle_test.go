package codeobject

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rocpu/rocpu/target"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBundleEntries compares the entry IDs with clang-offload-bundler-15
// --list (golden scale.hipfb.list.txt), and the extracted gfx90a object
// with the tool's --unbundle output when the tool is installed.
func TestBundleEntries(t *testing.T) {
	data := readTestdata(t, "scale.hipfb")
	bd, err := ParseBundle(data)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(readTestdata(t, "scale.hipfb.list.txt")))
	var got []string
	for _, e := range bd.Entries {
		got = append(got, e.ID)
	}
	// The tool lists entries in its own order; the header's order is
	// checked below through EncodeBundle's byte-identical output.
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("entries %v, clang-offload-bundler lists %v", got, want)
	}
	e, ok := bd.Find("amdgcn-amd-amdhsa--gfx90a")
	if !ok || e.Kind != "hipv4" {
		t.Fatalf("Find gfx90a: %+v %v", e, ok)
	}
	f, err := Parse(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	if id, err := f.TargetID(); err != nil || id.String() != "amdgcn-amd-amdhsa--gfx90a" {
		t.Errorf("target ID %v %v", id, err)
	}
	if len(bd.CodeObjects()) != 2 {
		t.Errorf("%d code objects, want 2", len(bd.CodeObjects()))
	}
	if _, err := exec.LookPath("clang-offload-bundler-15"); err == nil {
		out := t.TempDir() + "/gfx90a.co"
		cmd := exec.Command("clang-offload-bundler-15", "--unbundle", "--type=o", "--input=testdata/scale.hipfb",
			"--targets=hipv4-amdgcn-amd-amdhsa--gfx90a", "--output="+out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		if ref, _ := os.ReadFile(out); !bytes.Equal(ref, e.Data) {
			t.Errorf("extracted object differs from clang-offload-bundler's")
		}
	}
	// Re-encoding places entries as clang-offload-bundler does.
	// (The .hip_fatbin section holds one NUL byte past the bundle.)
	if enc := EncodeBundle(bd.Entries); !bytes.Equal(enc, data[:len(enc)]) || !bytes.Equal(data[len(enc):], []byte{0}) {
		t.Errorf("EncodeBundle differs from the clang-offload-bundler file (%d vs %d bytes)", len(enc), len(data))
	}
}

func TestCompressedBundles(t *testing.T) {
	data := readTestdata(t, "scale.hipfb")
	for _, method := range []uint16{CompressionZlib, CompressionZstd} {
		for _, version := range []uint16{2, 3} {
			c, err := CompressBundle(data, method, version)
			if err != nil {
				t.Fatal(err)
			}
			bd, err := ParseBundle(c)
			if err != nil {
				t.Fatalf("method %d v%d: %v", method, version, err)
			}
			if bd.Compressed == nil || !bd.Compressed.HashOK || bd.Compressed.UncompressedSize != uint64(len(data)) || bd.Size != int64(len(c)) {
				t.Errorf("method %d v%d: header %+v size %d", method, version, bd.Compressed, bd.Size)
			}
			if e, ok := bd.Find("hipv4-amdgcn-amd-amdhsa--gfx90a"); len(bd.Entries) != 3 || !ok || e.Size != 4480 {
				t.Errorf("method %d v%d: %d entries, gfx90a found %v", method, version, len(bd.Entries), ok)
			}
			// A header that lies about the uncompressed size is caught.
			bad := bytes.Clone(c)
			if version == 2 {
				le.PutUint32(bad[12:], uint32(len(data)-1))
			} else {
				le.PutUint64(bad[16:], uint64(len(data)+5))
			}
			var fe *FormatError
			if _, err := ParseBundle(bad); !errors.As(err, &fe) {
				t.Errorf("method %d v%d: lying size gave %v", method, version, err)
			}
		}
	}
	c, _ := CompressBundle(data, CompressionZlib, 3)
	le.PutUint16(c[6:], 7)
	if _, err := ParseBundle(c); !errors.Is(err, ErrNotSupported) {
		t.Errorf("unknown method: %v", err)
	}
}

func TestHIPExecutable(t *testing.T) {
	objs, err := OpenAny(readTestdata(t, "scale"))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 {
		t.Fatalf("%d code objects in the HIP executable, want 2", len(objs))
	}
	for _, o := range objs {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		ks, err := o.File.Kernels()
		if err != nil || len(ks) != 1 || ks[0].Name != "_Z5scalePffi" {
			t.Errorf("%s: kernels %v %v", o.Name, ks, err)
		}
	}
}

// TestCorpusHIPExecutables: the device code object found in each corpus
// HIP executable (through .hip_fatbin) and in its .hipfb bundle is the one
// the corpus extracted with clang-offload-bundler (<exe>.hsaco).
func TestCorpusHIPExecutables(t *testing.T) {
	exes, _ := filepath.Glob("../testdata/kernels/hip/*.O[0-9]")
	if len(exes) == 0 {
		t.Skip("corpus has no HIP executables")
	}
	for _, exe := range exes {
		want, err := os.ReadFile(exe + ".hsaco")
		if err != nil {
			continue
		}
		for _, in := range []string{exe, exe + ".hipfb"} {
			data, err := os.ReadFile(in)
			if err != nil {
				continue
			}
			objs, err := OpenAny(data)
			if err != nil {
				t.Errorf("%s: %v", in, err)
				continue
			}
			found := false
			for _, o := range objs {
				if o.Err != nil {
					t.Errorf("%s %s: %v", in, o.Name, o.Err)
					continue
				}
				found = found || bytes.Equal(o.File.Data(), want)
			}
			if !found {
				t.Errorf("%s: none of its %d code objects is %s.hsaco", in, len(objs), filepath.Base(exe))
			}
		}
	}
}

// TestHIPFatbinWrapper: with the .hip_fatbin section renamed, the bundle
// is still found through the wrapper HIP registers (.hipFatBinSegment).
func TestHIPFatbinWrapper(t *testing.T) {
	data := readTestdata(t, "scale")
	i := bytes.Index(data, []byte(".hip_fatbin\x00"))
	if i < 0 {
		t.Fatal("no .hip_fatbin name in the section-name table")
	}
	mod := bytes.Clone(data)
	copy(mod[i:], ".xxx_fatbin")
	bds, err := HIPFatBinaries(mod)
	if err != nil {
		t.Fatal(err)
	}
	if len(bds) != 1 || len(bds[0].CodeObjects()) != 2 {
		t.Errorf("%d bundles", len(bds))
	}
}

func TestBundleFindCompatible(t *testing.T) {
	data := readTestdata(t, "scale.hipfb")
	gfx90aAny := EncodeBundle([]BundleEntry{
		{ID: "host-x86_64-unknown-linux", Data: nil},
		{ID: "hipv4-amdgcn-amd-amdhsa--gfx90a", Data: []byte("any")},
		{ID: "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", Data: []byte("xnack-")},
		{ID: "hipv4-amdgcn-amd-amdhsa--gfx1030", Data: []byte("rdna")},
	})
	for _, c := range []struct {
		bundle []byte
		agent  string
		want   string // entry ID, "" for no match
	}{
		{data, "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "hipv4-amdgcn-amd-amdhsa--gfx90a"},
		{data, "amdgcn-amd-amdhsa--gfx1030", "hipv4-amdgcn-amd-amdhsa--gfx1030"},
		{data, "amdgcn-amd-amdhsa--gfx906:sramecc-:xnack-", ""},
		{gfx90aAny, "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-"},
		{gfx90aAny, "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack+", "hipv4-amdgcn-amd-amdhsa--gfx90a"},
	} {
		bd, err := ParseBundle(c.bundle)
		if err != nil {
			t.Fatal(err)
		}
		agent, err := target.ParseID(c.agent)
		if err != nil {
			t.Fatal(err)
		}
		e, err := bd.FindCompatible(agent)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s: chose %s, want none", c.agent, e.ID)
		case c.want != "" && (err != nil || e.ID != c.want):
			t.Errorf("%s: %v %v, want %s", c.agent, e, err, c.want)
		}
	}
}
