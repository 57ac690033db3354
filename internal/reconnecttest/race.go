//go:build race

package reconnecttest

// raceDetector is whether the race detector is on: it slows the trials
// tenfold, so Trials runs fewer.
const raceDetector = true
