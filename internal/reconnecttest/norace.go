//go:build !race

package reconnecttest

// raceDetector is whether the race detector is on.
const raceDetector = false
