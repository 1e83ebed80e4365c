package oracle

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
)

// The database kinds a Source names.
const (
	Postgres = "postgres"
	MySQL    = "mysql"
	SQLite   = "sqlite"
)

// Source is a database an SQL oracle reads, parsed from its URL:
//
//	postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=disable   (or postgresql://; any form pgx parses)
//	postgres://USER@/DB?host=/run/postgresql                (a unix socket directory)
//	mysql://USER:PASSWORD@HOST:PORT/DB?tls=false            (MySQL or MariaDB; parameters as go-sql-driver/mysql takes them)
//	mysql://USER:PASSWORD@/DB?socket=/run/mysqld/mysqld.sock
//	sqlite:PATH                                             (a file, opened read-only)
//
// mysql:// is this package's URL form of go-sql-driver/mysql's DSN
// USER:PASSWORD@tcp(HOST:PORT)/DB?PARAMS, with the socket as a parameter.
type Source struct {
	// Kind is Postgres, MySQL or SQLite.
	Kind string
	// Host and Port are where a TCP connection goes; Host is "" for a unix
	// socket or a file. Local says the database is reached without the
	// network (a unix socket, a file).
	Host, Port string
	Local      bool
	// Database is the database's name, or the SQLite file's path.
	Database string
	// User and Password are the login; Password is a secret.
	User, Password string

	pg *pgx.ConnConfig
	my *mysql.Config
}

// IsDatabaseURL reports whether raw names a database (postgres://,
// postgresql://, mysql:// or sqlite:) rather than an HTTP oracle.
func IsDatabaseURL(raw string) bool {
	scheme, _, ok := strings.Cut(raw, ":")
	if !ok {
		return false
	}
	switch strings.ToLower(scheme) {
	case "postgres", "postgresql", "mysql", SQLite:
		return true
	}
	return false
}

// ErrSource is returned, wrapped, for a database URL that cannot be
// parsed.
var ErrSource = errors.New("database URL")

// ParseSource parses a database URL (see Source).
func ParseSource(raw string) (Source, error) {
	scheme, rest, _ := strings.Cut(raw, ":")
	switch strings.ToLower(scheme) {
	case "postgres", "postgresql":
		return parsePostgres(raw)
	case "mysql":
		return parseMySQL(raw)
	case SQLite:
		path := strings.TrimPrefix(rest, "//")
		if path == "" {
			return Source{}, fmt.Errorf("%w: sqlite: needs a file's path (sqlite:./app.db)", ErrSource)
		}
		return Source{Kind: SQLite, Database: path, Local: true}, nil
	}
	return Source{}, fmt.Errorf("%w: %q is not postgres://, postgresql://, mysql:// or sqlite:PATH", ErrSource, scheme)
}

func parsePostgres(raw string) (Source, error) {
	cfg, err := pgx.ParseConfig(raw)
	if err != nil {
		// pgx's message quotes no password (it says only what failed).
		return Source{}, fmt.Errorf("%w: %w", ErrSource, err)
	}
	s := Source{Kind: Postgres, Database: cfg.Database, User: cfg.User, Password: cfg.Password, pg: cfg}
	if strings.HasPrefix(cfg.Host, "/") {
		s.Local = true
	} else {
		s.Host, s.Port = cfg.Host, fmt.Sprint(cfg.Port)
	}
	return s, nil
}

func parseMySQL(raw string) (Source, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Source{}, fmt.Errorf("%w: mysql://USER:PASSWORD@HOST:PORT/DB: %s", ErrSource, redactedURLError(err))
	}
	q := u.Query()
	socket := q.Get("socket")
	q.Del("socket")
	addr := "tcp(" + u.Host + ")"
	if socket != "" {
		if u.Host != "" {
			return Source{}, fmt.Errorf("%w: mysql: give a host or ?socket=, not both", ErrSource)
		}
		addr = "unix(" + socket + ")"
	} else if u.Host == "" {
		return Source{}, fmt.Errorf("%w: mysql: needs a host (mysql://USER:PASSWORD@127.0.0.1:3306/DB) or ?socket=PATH", ErrSource)
	}
	cfg, err := mysql.ParseDSN(addr + "/" + strings.TrimPrefix(u.Path, "/") + "?" + q.Encode())
	if err != nil {
		return Source{}, fmt.Errorf("%w: mysql: %w", ErrSource, err)
	}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	s := Source{Kind: MySQL, Database: cfg.DBName, User: cfg.User, Password: cfg.Passwd, my: cfg}
	if socket != "" {
		s.Local = true
	} else {
		s.Host, s.Port = u.Hostname(), u.Port()
		if n, err := strconv.Atoi(s.Port); s.Port != "" && (err != nil || n < 1 || n > 65535) {
			return Source{}, fmt.Errorf("%w: mysql: port %s is not a port (1..65535)", ErrSource, s.Port)
		}
		if s.Port == "" {
			s.Port = "3306"
			cfg.Addr = net.JoinHostPort(s.Host, s.Port)
		}
	}
	return s, nil
}

// redactedURLError is url.Parse's error without the URL, which may hold a
// password.
func redactedURLError(err error) string {
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return "not a URL"
}

// String is the source without its password.
func (s Source) String() string {
	switch {
	case s.Kind == SQLite:
		return "sqlite:" + s.Database
	case s.Local:
		return fmt.Sprintf("%s database %s (unix socket)", s.Kind, s.Database)
	}
	return fmt.Sprintf("%s database %s at %s", s.Kind, s.Database, net.JoinHostPort(s.Host, s.Port))
}

// sqliteDSN opens path read-only, refusing writes on the connection too.
func sqliteDSN(path string) string {
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
}

func fileMissing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, os.ErrNotExist)
}
