package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// memory is a process's resident set: now (VmRSS) and its peak so far
// (VmHWM), in KiB.
type memory struct {
	RSSKiB, PeakKiB int64
}

// readMemory reads /proc/<pid>/status.
func readMemory(pid int) (memory, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return memory{}, fmt.Errorf("reading the server's memory: %w", err)
	}
	return parseStatus(b)
}

// parseStatus reads VmRSS and VmHWM ("VmRSS:	  12345 kB") from a
// /proc/<pid>/status text.
func parseStatus(status []byte) (memory, error) {
	var m memory
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			return memory{}, fmt.Errorf("unexpected %s line %q", key, sc.Text())
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return memory{}, fmt.Errorf("unexpected %s line %q", key, sc.Text())
		}
		if key == "VmRSS" {
			m.RSSKiB = n
		} else {
			m.PeakKiB = n
		}
		found++
	}
	if found != 2 {
		return memory{}, fmt.Errorf("no VmRSS and VmHWM in the process status")
	}
	return m, nil
}
