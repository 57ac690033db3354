//go:build unix

package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// cluster is a scratch PostgreSQL cluster this process started.
type cluster struct {
	root    string // temporary directory: data/, the socket, postgres.log
	port    int
	cmd     *exec.Cmd     // the postmaster
	exited  chan struct{} // closed when the postmaster has exited
	waitErr error         // its exit status, once exited is closed
}

// startCluster creates and starts a scratch cluster, or returns
// errNoPostgres when there are no binaries.
func startCluster() (*cluster, error) {
	bin, err := findBinDir()
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp(socketBase(), "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("scratch cluster: %w", err)
	}
	c := &cluster{root: root}
	if err := c.init(bin, cred); err != nil {
		os.RemoveAll(root)
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		err = c.start(bin, cred)
		if err == nil {
			return c, nil
		}
		// Another process may have taken the free port between our
		// check and postgres binding it: try another one.
		if !errors.Is(err, errPortTaken) || attempt == 4 {
			os.RemoveAll(root)
			return nil, err
		}
	}
}

// socketBase is where the cluster's directory goes: the temporary
// directory, unless its path is too long for a Unix socket's.
func socketBase() string {
	if d := os.TempDir(); len(d) < 60 {
		return d
	}
	return "/tmp"
}

// findBinDir returns the directory of initdb and postgres: PATH first,
// then the newest /usr/lib/postgresql/<version>/bin (Debian, Ubuntu).
func findBinDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		dir := filepath.Dir(p)
		if isExec(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, dir := range dirs {
		if isExec(filepath.Join(dir, "initdb")) && isExec(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	return "", errNoPostgres
}

// versionOf is the major version in /usr/lib/postgresql/<version>/bin.
func versionOf(dir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(dir)), 64)
	return v
}

func isExec(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// credential is who the cluster runs as: nil (this user), or the OS user
// postgres when this process is root.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("scratch cluster: running as root, PostgreSQL must run as another user, "+
			"and the OS user postgres was not found: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("scratch cluster: user postgres: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// command is bin/name args, run as cred in c.root.
func (c *cluster) command(bin string, cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(bin, name), args...)
	cmd.Dir = c.root
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	cmd.SysProcAttr = sysProcAttr(cred)
	return cmd
}

// init runs initdb into c.root/data.
func (c *cluster) init(bin string, cred *syscall.Credential) error {
	if cred != nil {
		if err := os.Chown(c.root, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("scratch cluster: %w", err)
		}
	}
	cmd := c.command(bin, cred, "initdb", "-D", filepath.Join(c.root, "data"),
		"-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("scratch cluster: initdb: %w\n%s", err, out)
	}
	return nil
}

// errPortTaken is a start that failed because the port was in use.
var errPortTaken = errors.New("port taken")

// start starts the postmaster on a free port and waits until it accepts
// connections.
func (c *cluster) start(bin string, cred *syscall.Credential) error {
	port, err := freePort()
	if err != nil {
		return fmt.Errorf("scratch cluster: %w", err)
	}
	c.port = port
	logPath := filepath.Join(c.root, "postgres.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("scratch cluster: %w", err)
	}
	defer logFile.Close() // the child has its own descriptor
	cmd := c.command(bin, cred, "postgres", "-D", filepath.Join(c.root, "data"),
		"-c", "listen_addresses=127.0.0.1",
		"-c", "port="+strconv.Itoa(port),
		"-k", c.root,
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "max_connections=300",
	)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	c.cmd = cmd
	c.exited = make(chan struct{})

	// The postmaster gets its parent-death signal when the thread that
	// started it ends: start it from a goroutine locked to its thread
	// for as long as the postmaster runs.
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	if err := <-started; err != nil {
		return fmt.Errorf("scratch cluster: start postgres: %w", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		select {
		case <-c.exited:
			log, _ := os.ReadFile(logPath)
			if strings.Contains(string(log), "could not bind") || strings.Contains(string(log), "could not create any TCP/IP sockets") {
				return errPortTaken
			}
			return fmt.Errorf("scratch cluster: postgres exited (%v):\n%s", c.waitErr, log)
		case <-ctx.Done():
			c.stop()
			return fmt.Errorf("scratch cluster: postgres did not accept connections within a minute")
		case <-time.After(50 * time.Millisecond):
		}
		cctx, ccancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgx.Connect(cctx, c.dsn("postgres"))
		ccancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
	}
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// dsn is the DSN of database db of the cluster.
func (c *cluster) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// stop shuts the postmaster down at once (SIGQUIT: what pg_ctl stop -m
// immediate sends), waits for it, and removes the cluster's directory.
func (c *cluster) stop() error {
	var errs []error
	if c.cmd != nil && c.cmd.Process != nil {
		select {
		case <-c.exited:
		default:
			if err := c.cmd.Process.Signal(syscall.SIGQUIT); err != nil && !errors.Is(err, os.ErrProcessDone) {
				errs = append(errs, err)
			}
			select {
			case <-c.exited:
			case <-time.After(30 * time.Second):
				c.cmd.Process.Kill()
				<-c.exited
			}
		}
	}
	if err := os.RemoveAll(c.root); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("pgtest: stop scratch cluster: %w", err)
	}
	return nil
}
