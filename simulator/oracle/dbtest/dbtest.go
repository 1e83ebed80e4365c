// Package dbtest starts private PostgreSQL and MariaDB servers for tests:
// one of each per test binary (call them from TestMain), each in a
// temporary directory, on a free loopback port, logging every statement
// so a test can prove what a client sent. The Debian packages postgresql
// and mariadb-server provide them. Under CI=true a missing server is an
// error; elsewhere Start* returns ErrMissing and the caller skips.
package dbtest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrMissing is returned when a server's binaries are not installed.
var ErrMissing = errors.New("not installed: apt-get install -y postgresql mariadb-server (CI's .ci/run does)")

// Server is a running database server.
type Server struct {
	// AdminURL connects as a user that may create tables; ReaderURL as
	// the user "reader" (password ReaderPassword), who also may write:
	// only the client's read-only transaction keeps it from writing.
	AdminURL, ReaderURL string
	// Log is the file every statement is logged to.
	Log  string
	stop func()
}

// ReaderPassword is the reader's password: a test checks that no output
// holds it.
const ReaderPassword = "rdr-Pw-7f3a9c"

// Stop stops the server and removes its directory.
func (s *Server) Stop() { s.stop() }

// Required says a missing server fails rather than skips (CI=true).
func Required() bool { return os.Getenv("CI") == "true" }

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ownedDir makes a temporary directory owned by the system user name.
func ownedDir(name string) (string, error) {
	dir, err := os.MkdirTemp("", "retrysim-"+name+"-")
	if err != nil {
		return "", err
	}
	u, err := user.Lookup(name)
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("%w (no system user %s)", ErrMissing, name)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	return dir, os.Chown(dir, uid, gid)
}

func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// StartPostgres starts PostgreSQL with log_statement=all and the prefix
// "user=%u ", a database "app" owned by the admin "app", and the user
// "reader" with every privilege on it.
func StartPostgres() (*Server, error) {
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		return nil, fmt.Errorf("postgresql %w", ErrMissing)
	}
	bin := filepath.Dir(bins[len(bins)-1])
	dir, err := ownedDir("postgres")
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	data, logf := filepath.Join(dir, "data"), filepath.Join(dir, "postgres.log")
	su := func(cmd string) error { return run("su", "postgres", "-s", "/bin/sh", "-c", cmd) }
	if err := su(fmt.Sprintf("%s/initdb -D %s -U postgres --auth-local=trust --auth-host=scram-sha-256 >/dev/null", bin, data)); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := fmt.Sprintf(`-p %d -k %s -c listen_addresses=127.0.0.1 -c log_statement=all -c log_line_prefix=user=%%u\ `, port, dir)
	if err := su(fmt.Sprintf("%s/pg_ctl -D %s -l %s -w -o %q start >/dev/null", bin, data, logf, opts)); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	stop := func() {
		su(fmt.Sprintf("%s/pg_ctl -D %s -m immediate stop >/dev/null", bin, data))
		os.RemoveAll(dir)
	}
	psql := func(sql string) error {
		return su(fmt.Sprintf("%s/psql -h %s -p %d -U postgres -v ON_ERROR_STOP=1 -q -c %q", bin, dir, port, sql))
	}
	for _, sql := range []string{
		"CREATE ROLE app LOGIN PASSWORD 'app-pw'",
		"CREATE ROLE reader LOGIN PASSWORD '" + ReaderPassword + "'",
		"CREATE DATABASE app OWNER app",
		"GRANT ALL ON DATABASE app TO reader",
	} {
		if err := psql(sql); err != nil {
			stop()
			return nil, err
		}
	}
	base := fmt.Sprintf("127.0.0.1:%d/app?sslmode=disable", port)
	return &Server{
		AdminURL:  "postgres://app:app-pw@" + base,
		ReaderURL: "postgres://reader:" + ReaderPassword + "@" + base,
		Log:       logf, stop: stop,
	}, nil
}

// StartMariaDB starts MariaDB with the general log on, a database "app",
// the admin "app" and the user "reader", both with every privilege on it.
func StartMariaDB() (*Server, error) {
	if _, err := exec.LookPath("mariadbd"); err != nil {
		if _, err := os.Stat("/usr/sbin/mariadbd"); err != nil {
			return nil, fmt.Errorf("mariadb %w", ErrMissing)
		}
	}
	dir, err := ownedDir("mysql")
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	data, sock, logf := filepath.Join(dir, "data"), filepath.Join(dir, "sock"), filepath.Join(dir, "general.log")
	if err := run("mariadb-install-db", "--user=mysql", "--datadir="+data, "--auth-root-authentication-method=socket", "--skip-test-db"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command("/usr/sbin/mariadbd", "--no-defaults", "--user=mysql", "--datadir="+data, fmt.Sprintf("--port=%d", port),
		"--bind-address=127.0.0.1", "--socket="+sock, "--pid-file="+filepath.Join(dir, "pid"),
		"--general-log=1", "--general-log-file="+logf, "--skip-log-bin", "--innodb-buffer-pool-size=16M")
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	stop := func() {
		cmd.Process.Kill()
		cmd.Wait()
		os.RemoveAll(dir)
	}
	var sqlErr error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if sqlErr = run("mariadb", "--socket="+sock, "-uroot", "-e", "SELECT 1"); sqlErr == nil {
			break
		}
	}
	if sqlErr != nil {
		stop()
		return nil, sqlErr
	}
	for _, sql := range []string{
		"CREATE DATABASE app",
		"CREATE USER 'app'@'127.0.0.1' IDENTIFIED BY 'app-pw'",
		"CREATE USER 'reader'@'127.0.0.1' IDENTIFIED BY '" + ReaderPassword + "'",
		"GRANT ALL ON app.* TO 'app'@'127.0.0.1'",
		"GRANT ALL ON app.* TO 'reader'@'127.0.0.1'",
	} {
		if err := run("mariadb", "--socket="+sock, "-uroot", "-e", sql); err != nil {
			stop()
			return nil, err
		}
	}
	base := fmt.Sprintf("127.0.0.1:%d/app", port)
	return &Server{
		AdminURL:  "mysql://app:app-pw@" + base,
		ReaderURL: "mysql://reader:" + ReaderPassword + "@" + base,
		Log:       logf, stop: stop,
	}, nil
}
