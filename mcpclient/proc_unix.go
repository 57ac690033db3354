//go:build unix

package mcpclient

import (
	"os/exec"
	"syscall"
)

// startInOwnGroup makes the child the leader of a new process group, so
// that stopping it also stops what it started (npx starting node, say).
func startInOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the child's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error {
	return syscall.Kill(-cmd.Process.Pid, sig)
}

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)
