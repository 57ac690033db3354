package pgtest

import "syscall"

// sysProcAttr runs a server process as cred (nil: as this process), and
// has it shut down at once (SIGQUIT) when its parent dies.
func sysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
}
