package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the rocpu release; "devel" until the first tagged release.
const version = "0.1.0-devel"

func init() {
	register(&command{
		name:    "version",
		summary: "print rocpu's version and build information",
		usage:   "",
		run: func(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
			if st, ok := parse(fs, args, stdout); !ok {
				return st
			}
			if fs.NArg() != 0 {
				fmt.Fprintf(stderr, "rocpu version: takes no arguments\n")
				return 2
			}
			rev := "unknown"
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" {
						rev = s.Value
					}
				}
			}
			fmt.Fprintf(stdout, "rocpu %s (commit %s, %s, %s/%s)\n", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return 0
		},
	})
}
