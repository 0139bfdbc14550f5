//go:build race

package hsa

// raceEnabled is true under the race detector: signal operations then also
// touch a Go-heap word (Signal.hb), because the detector does not see the
// happens-before edges that atomics on mmap'd signal memory create.
const raceEnabled = true
