//go:build race

package emu_test

// raceTest is true under the race detector: the PoCL differential then runs
// each kernel at one (ragged) size, since the unit run without -race
// compares every size and the race run looks for data races in the engine.
const raceTest = true
