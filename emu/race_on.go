//go:build race

package emu

// raceEnabled makes guest dword loads and stores use sync/atomic, so the
// race detector sees kernels' inter-wave communication (spin-waits on
// flags) as synchronised, as it is on the GPU.
const raceEnabled = true
