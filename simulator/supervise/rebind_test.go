package supervise

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// rebindingDNS is a DNS server on 127.0.0.1 that answers every A query for
// any name with first, then with later ever after: a name that rebinds
// from loopback to another machine. AAAA queries get no answer.
type rebindingDNS struct {
	conn         net.PacketConn
	first, later [4]byte
	queries      atomic.Int32
}

func newRebindingDNS(t *testing.T, first, later string) *rebindingDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &rebindingDNS{conn: pc}
	copy(d.first[:], net.ParseIP(first).To4())
	copy(d.later[:], net.ParseIP(later).To4())
	t.Cleanup(func() { pc.Close() })
	go d.serve()
	return d
}

func (d *rebindingDNS) serve() {
	buf := make([]byte, 512)
	for {
		n, from, err := d.conn.ReadFrom(buf)
		if err != nil {
			return
		}
		if n < 12 {
			continue
		}
		q := buf[:n]
		// The question: a name (labels up to a zero byte), type, class.
		end := 12
		for end < n && q[end] != 0 {
			end += int(q[end]) + 1
		}
		end += 5
		if end > n {
			continue
		}
		qtype := binary.BigEndian.Uint16(q[end-4:])
		resp := append([]byte{}, q[:end]...)
		resp[2], resp[3] = 0x81, 0x80            // a response, recursion available, no error
		binary.BigEndian.PutUint16(resp[6:], 0)  // answers
		binary.BigEndian.PutUint16(resp[8:], 0)  // authority
		binary.BigEndian.PutUint16(resp[10:], 0) // additional
		if qtype == 1 {
			addr := d.later
			if d.queries.Add(1) == 1 {
				addr = d.first
			}
			binary.BigEndian.PutUint16(resp[6:], 1)
			resp = append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4)
			resp = append(resp, addr[:]...)
		}
		d.conn.WriteTo(resp, from)
	}
}

// resolver is a resolver that asks only this server.
func (d *rebindingDNS) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var nd net.Dialer
		return nd.DialContext(ctx, "udp", d.conn.LocalAddr().String())
	}}
}

// TestExecProbeUnderRebinding: --exec's readiness probe connects through
// the guarded dialer, so a handler's host name that answers 127.0.0.1 and
// then another machine's address is refused when it changes, and nothing
// connects to the other address.
func TestExecProbeUnderRebinding(t *testing.T) {
	dns := newRebindingDNS(t, "127.0.0.1", "10.0.0.1")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	h := newHandler("", net.JoinHostPort("rebind.test", port), nil, WithResolver(dns.resolver()))
	if err := h.probe(); err != nil {
		t.Fatalf("the first probe, answered 127.0.0.1: %v", err)
	}
	for i := range 5 {
		err := h.probe()
		if !errors.Is(err, simulator.ErrRemoteTarget) || !strings.Contains(err.Error(), "10.0.0.1") {
			t.Fatalf("probe %d, answered 10.0.0.1: %v, want a refusal naming it", i+2, err)
		}
	}
	if dns.queries.Load() < 6 {
		t.Errorf("the resolver answered %d A queries, want one per probe", dns.queries.Load())
	}
}
