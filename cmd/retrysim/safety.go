package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
)

// resolverKey carries, in a command's context, the resolver of target
// names for the loopback check.
type resolverKey struct{}

// withResolver makes r resolve target names for the loopback check of the
// commands run under ctx (tests give their own, so that nothing depends
// on DNS).
func withResolver(ctx context.Context, r simulator.Resolver) context.Context {
	return context.WithValue(ctx, resolverKey{}, r)
}

// resolverOf is the resolver of target names under ctx: the system's
// unless withResolver gave another.
func resolverOf(ctx context.Context) simulator.Resolver {
	if r, ok := ctx.Value(resolverKey{}).(simulator.Resolver); ok {
		return r
	}
	return net.DefaultResolver
}

// maxRPSFlag is --max-rps: requests per second, 0 for no cap, or "auto"
// (the default): no cap for a loopback target, DefaultRemoteMaxRPS for any
// other.
type maxRPSFlag struct {
	rps  float64
	auto bool
}

func newMaxRPSFlag() *maxRPSFlag { return &maxRPSFlag{auto: true} }

func (f *maxRPSFlag) String() string {
	if f.auto {
		return "auto"
	}
	return strconv.FormatFloat(f.rps, 'g', -1, 64)
}

func (f *maxRPSFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "auto") {
		*f = maxRPSFlag{auto: true}
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || simulator.CheckMaxRPS(v) != nil {
		return fmt.Errorf("%q is not a rate: give requests per second from 0 (no cap) to %d, or auto", s, simulator.MaxMaxRPS)
	}
	*f = maxRPSFlag{rps: v}
	return nil
}

func (f *maxRPSFlag) Type() string { return "N" }

// rateCap is the --max-rps the run goes with: the flag's value, or with
// auto, DefaultRemoteMaxRPS for a --url that is not on this machine and no
// cap otherwise.
func (f *runFlags) rateCap(ctx context.Context) float64 {
	if !f.maxRPS.auto {
		return f.maxRPS.rps
	}
	if f.url != "" && f.allowRemote && isRemote(ctx, f.url) {
		return simulator.DefaultRemoteMaxRPS
	}
	return 0
}

// isRemote reports whether rawURL is not on this machine (or cannot be
// told to be).
func isRemote(ctx context.Context, rawURL string) bool {
	return simulator.CheckTargetWith(ctx, resolverOf(ctx), rawURL, false) != nil
}

// checkTarget refuses rawURL, given with flag, when it is not on this
// machine and remote targets are not allowed, or is no URL to send to.
func checkTarget(ctx context.Context, flag, rawURL string, allowRemote bool) []error {
	if err := simulator.CheckTargetWith(ctx, resolverOf(ctx), rawURL, allowRemote); err != nil {
		return []error{fmt.Errorf("%s: %w", flag, advice.Target(err))}
	}
	return nil
}

// tlsConfig builds the TLS settings of --insecure and --ca: nil when neither
// is given.
func tlsConfig(insecure bool, caFile string) (*tls.Config, error) {
	switch {
	case insecure && caFile != "":
		return nil, errors.New("--insecure and --ca: give one (--ca trusts your certificate; --insecure trusts any)")
	case insecure:
		return &tls.Config{InsecureSkipVerify: true}, nil
	case caFile == "":
		return nil, nil
	}
	cfg, err := simulator.TrustFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("--ca: %w", err)
	}
	return cfg, nil
}
