//go:build race

package ops

// raceEnabled trims the largest test sizes to one layout under the (slow)
// race detector; the normal run covers every combination.
const raceEnabled = true
