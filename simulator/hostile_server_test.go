package simulator

import (
	"bufio"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// rawServer is a TCP server on 127.0.0.1 that speaks whatever its handler
// writes, for answers net/http would never send. Closing it ends every
// connection and waits for every handler to return.
type rawServer struct {
	ln    net.Listener
	done  chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn
}

// startRaw serves handle on a loopback port until the test ends and returns
// the URL to send to. handle gets done, closed when the test ends: a handler
// that "hangs forever" waits on it.
func startRaw(t *testing.T, handle func(c net.Conn, done <-chan struct{})) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln, done: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer c.Close()
				handle(c, s.done)
			}()
		}
	}()
	t.Cleanup(func() {
		close(s.done)
		ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return "http://" + ln.Addr().String() + "/hook"
}

// readRequest reads one whole request from c, so that the client has sent
// everything before the handler misbehaves.
func readRequest(c net.Conn) *bufio.Reader {
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err == nil {
		io.Copy(io.Discard, req.Body)
	}
	return br
}

// dribble writes s one byte per tick until it is written, the connection
// fails or the test ends.
func dribble(c net.Conn, done <-chan struct{}, s string, tick time.Duration) {
	tk := time.NewTicker(tick)
	defer tk.Stop()
	for i := 0; i < len(s); i++ {
		if _, err := c.Write([]byte{s[i]}); err != nil {
			return
		}
		select {
		case <-tk.C:
		case <-done:
			return
		}
	}
	<-done
}

// target is where a hostile case sends, and how.
type target struct {
	url string
	tls *tls.Config
}

func plain(url string) target { return target{url: url} }
