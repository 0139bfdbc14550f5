// Command rocpu is the command-line face of rocpu: it inspects AMDGPU code
// objects, disassembles them and (as later issues land) runs their kernels on
// the software GPU.
//
// Each subcommand lives in its own file (cmd_<name>.go) and registers itself
// with register() from an init function, so subcommands can be added without
// touching this file.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one rocpu subcommand.
type command struct {
	name    string
	summary string // one line for `rocpu help`
	usage   string // argument synopsis, e.g. "[--json] FILE..."
	// run executes the subcommand. It returns the process exit status.
	// fs is a fresh FlagSet whose output goes to stderr; run defines its
	// flags, parses args with parse(fs, args) and does the work.
	run func(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("rocpu: duplicate subcommand " + c.name)
	}
	commands[c.name] = c
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "-version", "--version":
		name = "version"
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "rocpu: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	fs := flag.NewFlagSet("rocpu "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: rocpu %s %s\n\n%s\n", c.name, c.usage, c.summary)
		var hasFlags bool
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(fs.Output(), "\nflags:\n")
			fs.PrintDefaults()
		}
	}
	return c.run(fs, args[1:], stdout, stderr)
}

// parse parses args into fs. It returns ok=false and the exit status to use
// when parsing failed or help was requested (help exits 0, printed to stdout).
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (status int, ok bool) {
	// The flag package prints the usage itself (to stderr) both for -help
	// and for a bad flag. Silence that call and print it here instead, so
	// help goes to stdout exactly once and errors get it on stderr once.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == flag.ErrHelp:
		errOut := fs.Output()
		fs.SetOutput(stdout)
		fs.Usage()
		fs.SetOutput(errOut)
		return 0, false
	case err != nil:
		fs.Usage()
		return 2, false
	}
	return 0, true
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "rocpu — the HSA runtime for AMD GPUs whose GPU is software.\n\nusage: rocpu <command> [flags] [args]\n\ncommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nRun 'rocpu <command> --help' for a command's flags.\n")
}

func init() {
	register(&command{
		name:    "help",
		summary: "show help for rocpu or one of its commands",
		usage:   "[COMMAND]",
		run: func(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
			if st, ok := parse(fs, args, stdout); !ok {
				return st
			}
			if fs.NArg() == 0 {
				usage(stdout)
				return 0
			}
			name := strings.TrimSpace(fs.Arg(0))
			if _, ok := commands[name]; !ok {
				fmt.Fprintf(stderr, "rocpu help: unknown command %q\n", name)
				return 2
			}
			return run([]string{name, "--help"}, stdout, stderr)
		},
	})
}
