//go:build linux

package bench

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// threadSample is one thread's CPU time so far (ns), the CPU it last ran
// on and its migrations between CPUs so far.
type threadSample struct {
	ns, migrations uint64
	cpu            int
}

// sampleThreads reads every thread of the process from /proc/self/task
// (nil when /proc is not there).
func sampleThreads() map[int]threadSample {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil
	}
	m := make(map[int]threadSample, len(ents))
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, ok := sampleThread(e.Name()); ok {
			m[tid] = s
		}
	}
	return m
}

func sampleThread(tid string) (threadSample, bool) {
	var s threadSample
	dir := "/proc/self/task/" + tid + "/"
	// stat: the fields after the command's closing parenthesis start at
	// field 3 (state); field 39 is the CPU last run on.
	b, err := os.ReadFile(dir + "stat")
	if err != nil {
		return s, false
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 37 {
		return s, false
	}
	if s.cpu, err = strconv.Atoi(f[36]); err != nil {
		return s, false
	}
	// schedstat: time on a CPU (ns), time waiting, time slices.
	b, err = os.ReadFile(dir + "schedstat")
	if err != nil {
		return s, false
	}
	if f = strings.Fields(string(b)); len(f) < 1 {
		return s, false
	}
	if s.ns, err = strconv.ParseUint(f[0], 10, 64); err != nil {
		return s, false
	}
	b, err = os.ReadFile(dir + "sched")
	if err != nil {
		return s, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "se.nr_migrations" {
			if s.migrations, err = strconv.ParseUint(strings.TrimSpace(v), 10, 64); err != nil {
				return s, false
			}
			return s, true
		}
	}
	return s, false
}

// runCPU names the CPU a one-worker run ran on, from samples of the
// process's threads before (a) and after (b): the CPU on which threads that
// did not migrate meanwhile spent at least 90% of the CPU time all threads
// spent, or -1 when there is no such CPU.
func runCPU(a, b map[int]threadSample) int {
	if a == nil || b == nil {
		return -1
	}
	var total uint64
	per := map[int]uint64{}
	for tid, y := range b {
		x := a[tid] // zero for a thread started during the run
		d := y.ns - x.ns
		total += d
		if y.migrations == x.migrations && (x.ns == 0 || x.cpu == y.cpu) {
			per[y.cpu] += d
		}
	}
	for cpu, d := range per {
		if total > 0 && d*10 >= total*9 {
			return cpu
		}
	}
	return -1
}
