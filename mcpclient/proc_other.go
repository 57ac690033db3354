//go:build !unix

package mcpclient

import (
	"os"
	"os/exec"
	"syscall"
)

func startInOwnGroup(*exec.Cmd) {}

// signalGroup kills the child: without process groups there is no gentler
// portable signal.
func signalGroup(cmd *exec.Cmd, _ syscall.Signal) error {
	return cmd.Process.Signal(os.Kill)
}

const (
	sigTerm = syscall.Signal(0xf)
	sigKill = syscall.Signal(0x9)
)
