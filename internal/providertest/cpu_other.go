//go:build !unix

package providertest

import "time"

// processCPU is not measured here: CPUPerOp reports nothing.
func processCPU() time.Duration { return 0 }
