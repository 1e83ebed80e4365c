package demo

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/retrysim/retrysim/simulator"
)

// The problems CheckListen finds.
var (
	// ErrNotHostPort is an address that is not HOST:PORT.
	ErrNotHostPort = errors.New("not host:port")
	// ErrNotLoopback is an address other machines could reach.
	ErrNotLoopback = errors.New("not a loopback address")
)

// CheckListen checks addr, where the demo handler is to listen: HOST:PORT
// (port 0 for any free one), on a loopback host unless allowRemote; an
// empty host, every interface, is not a loopback one. A host that is no
// address to send to either is refused with simulator.CheckTarget's
// error.
func CheckListen(ctx context.Context, addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	switch {
	case err != nil || port == "":
		return ErrNotHostPort
	case host == "" && !allowRemote:
		return fmt.Errorf("%w: every interface", ErrNotLoopback)
	case host == "":
		return nil
	}
	// The host is what is checked: port 0 is fine to listen on, though no
	// URL names it.
	err = simulator.CheckTarget(ctx, "http://"+net.JoinHostPort(host, "80"), allowRemote)
	if errors.Is(err, simulator.ErrRemoteTarget) {
		return fmt.Errorf("%w: %w", ErrNotLoopback, err)
	}
	return err
}
