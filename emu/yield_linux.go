package emu

import "syscall"

// osYield gives up the CPU (sched_yield(2)), not the P: spinning loops call
// it so that a thread they wait for, sharing the CPU, can run.
func osYield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
