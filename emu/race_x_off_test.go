//go:build !race

package emu_test

// raceTest is true under the race detector (see race_x_on_test.go).
const raceTest = false
