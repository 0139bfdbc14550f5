package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunDispatch(t *testing.T) {
	cases := []struct {
		args       []string
		status     int
		out, errut string // substrings expected on stdout / stderr
	}{
		{args: nil, status: 2, errut: "usage: rocpu <command>"},
		{args: []string{"--help"}, status: 0, out: "commands:"},
		{args: []string{"help"}, status: 0, out: "version"},
		{args: []string{"help", "version"}, status: 0, out: "usage: rocpu version"},
		{args: []string{"help", "nosuch"}, status: 2, errut: `unknown command "nosuch"`},
		{args: []string{"version"}, status: 0, out: "rocpu " + version},
		{args: []string{"--version"}, status: 0, out: "rocpu " + version},
		{args: []string{"version", "extra"}, status: 2, errut: "takes no arguments"},
		{args: []string{"version", "--bogus"}, status: 2, errut: "flag provided but not defined"},
		{args: []string{"nosuch"}, status: 2, errut: `unknown command "nosuch"`},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		got := run(c.args, &out, &errb)
		if got != c.status {
			t.Errorf("run(%q) = %d, want %d (stderr %q)", c.args, got, c.status, errb.String())
		}
		if c.out != "" && !strings.Contains(out.String(), c.out) {
			t.Errorf("run(%q) stdout %q lacks %q", c.args, out.String(), c.out)
		}
		if c.errut != "" && !strings.Contains(errb.String(), c.errut) {
			t.Errorf("run(%q) stderr %q lacks %q", c.args, errb.String(), c.errut)
		}
	}
}

// TestEveryCommandHasHelp checks that each registered subcommand answers
// --help with its usage line on stdout and status 0.
func TestEveryCommandHasHelp(t *testing.T) {
	for name := range commands {
		var out, errb bytes.Buffer
		if got := run([]string{name, "--help"}, &out, &errb); got != 0 {
			t.Errorf("rocpu %s --help: status %d, stderr %q", name, got, errb.String())
		}
		if !strings.Contains(out.String(), "usage: rocpu "+name) {
			t.Errorf("rocpu %s --help: stdout %q lacks usage line", name, out.String())
		}
	}
}

// TestHelpPrintedOnce guards against the flag package and parse() both
// printing the usage.
func TestHelpPrintedOnce(t *testing.T) {
	for name := range commands {
		var out, errb bytes.Buffer
		run([]string{name, "--help"}, &out, &errb)
		if n := strings.Count(out.String(), "usage: rocpu "+name); n != 1 {
			t.Errorf("rocpu %s --help printed the usage %d times on stdout", name, n)
		}
		if errb.Len() != 0 {
			t.Errorf("rocpu %s --help wrote to stderr: %q", name, errb.String())
		}
		out.Reset()
		errb.Reset()
		if got := run([]string{name, "--no-such-flag"}, &out, &errb); got != 2 {
			t.Errorf("rocpu %s --no-such-flag: status %d, want 2", name, got)
		}
		if n := strings.Count(errb.String(), "usage: rocpu "+name); n != 1 {
			t.Errorf("rocpu %s --no-such-flag printed the usage %d times on stderr", name, n)
		}
	}
}
