package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestInfo(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"info"}, &out, &errb); st != 0 {
		t.Fatalf("rocpu info: status %d, stderr %q", st, errb.String())
	}
	for _, want := range []string{
		`Name:\s+gfx90a\n`,
		`Name:\s+amdgcn-amd-amdhsa--gfx90a:sramecc\+:xnack-\n`,
		`Profile:\s+BASE_PROFILE\n`,
		`Device Type:\s+GPU\n`,
		`Device Type:\s+CPU\n`,
		`Timestamp Frequency:\s+1000000000 Hz\n`,
		`Segment:\s+GLOBAL; FLAGS: COARSE GRAINED\n`,
		`Segment:\s+GLOBAL; FLAGS: FINE GRAINED, KERNARG\n`,
		`Segment:\s+GROUP\n`,
		`Cooperative Queues:\s+true\n`, // the GPU agent
		`Chip ID:\s+29711\(0x740f\)\n`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("rocpu info lacks %q", want)
		}
	}
}

func TestInfoJSON(t *testing.T) {
	t.Setenv("ROCPU_TARGETS", "gfx90a,gfx906")
	var out, errb bytes.Buffer
	if st := run([]string{"info", "--json"}, &out, &errb); st != 0 {
		t.Fatalf("status %d, stderr %q", st, errb.String())
	}
	var rep infoReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Agents) != 3 || rep.Agents[0].DeviceType != "CPU" || rep.Agents[2].Name != "gfx906" {
		t.Fatalf("agents %+v", rep.Agents)
	}
	g := rep.Agents[1]
	if len(g.ISAs) != 1 || g.ISAs[0].Name != "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" || g.ChipID != 0x740f ||
		g.WavefrontSize != 64 || len(g.Pools) != 2 || g.Pools[1].Segment != "GROUP" || g.Pools[1].Size != 65536 {
		t.Errorf("GPU agent %+v", g)
	}
	if len(rep.Agents[0].Pools) != 3 || rep.Runtime.TimestampFrequency != 1e9 || len(rep.Runtime.Extensions) != 2 || rep.Runtime.Extensions[0] != 1 || rep.Runtime.Extensions[1] != 0x201 {
		t.Errorf("report %+v", rep.Runtime)
	}
	t.Setenv("ROCPU_TARGETS", "gfx9999")
	out.Reset()
	errb.Reset()
	if st := run([]string{"info"}, &out, &errb); st != 1 || !strings.Contains(errb.String(), "gfx9999") {
		t.Errorf("bad target: status %d stderr %q", st, errb.String())
	}
}
