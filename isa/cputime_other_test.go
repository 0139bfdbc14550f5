//go:build !unix

package isa

import "time"

func processCPUTime() (time.Duration, bool) { return 0, false }
