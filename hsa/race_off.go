//go:build !race

package hsa

const raceEnabled = false
