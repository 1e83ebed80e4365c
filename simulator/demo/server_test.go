package demo

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestServerClosesSlowAndIdleConnections: a client that stops halfway
// through its body, and a keep-alive connection left idle, are closed by
// the server instead of held open.
func TestServerClosesSlowAndIdleConnections(t *testing.T) {
	t.Parallel()
	h, err := New(Naive)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(h, 100*time.Millisecond, 100*time.Millisecond)
	go srv.Serve(ln)
	defer srv.Close()

	closed := func(t *testing.T, c net.Conn, r *bufio.Reader) {
		t.Helper()
		// A guard against a server that never closes, not a measure.
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		_, err := io.Copy(io.Discard, r)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatal("the server kept the connection open")
		}
	}
	t.Run("slow body", func(t *testing.T) {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "POST /webhooks/stripe HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"id\":")
		closed(t, c, bufio.NewReader(c))
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET "+EffectsPath+" HTTP/1.1\r\nHost: x\r\n\r\n")
		r := bufio.NewReader(c)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		closed(t, c, r)
	})
}
