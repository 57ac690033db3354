//go:build unix && !linux

package pgtest

import "syscall"

// sysProcAttr runs a server process as cred (nil: as this process).
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred}
}
