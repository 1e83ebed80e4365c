// Command plainclient is the plain Go client that docs/performance.md's
// command-line comparison times retrysim against: what a hand-written keep-alive
// client costs to post what Stripe posts. It is not part of retrysim (it
// lives under testdata so that go build ./... leaves it out).
//
//	go run ./simulator/testdata/plainclient serve [-slow 100]    # prints the handler's URL
//	go run ./simulator/testdata/plainclient post -url URL -n 20000 -c 64
//
// serve answers 200 to every request after reading its body, holding one
// request in -slow for a second (0: none), as BenchmarkSlowHandler's
// handler does; with -hang it never answers. A set-up handshake (a JSON
// body with a "challenge", as Slack sends) is answered with the challenge;
// no other body is parsed, so every request costs the handler alike. post
// sends -n requests from -c goroutines, each a body of -size bytes signed
// as Stripe signs ("t=<unix>,v1=<HMAC-SHA256 of t.body>") with Stripe's
// headers, and prints its wall and CPU time.
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: plainclient serve|post [flags]")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "serve":
		serve(os.Args[2:])
	case "post":
		post(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, "usage: plainclient serve|post [flags]")
		os.Exit(2)
	}
}

func serve(args []string) {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	slow := fs.Int64("slow", 0, "hold one request in this many for a second (0: none)")
	hang := fs.Bool("hang", false, "never answer: hold every request until the client gives up")
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (loopback)")
	fs.Parse(args)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s/\n", ln.Addr())
	var n atomic.Int64
	err = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		// Only a body that names a challenge is parsed, so that every other
		// request costs the handler the same whatever its body: a Stripe
		// event's JSON as much as post's bytes.
		var hello struct{ Challenge string }
		if bytes.Contains(body, []byte(`"challenge"`)) && json.Unmarshal(body, &hello) == nil && hello.Challenge != "" {
			io.WriteString(w, hello.Challenge) // a provider's set-up handshake
			return
		}
		if *hang {
			<-r.Context().Done()
			return
		}
		if *slow > 0 && n.Add(1)%*slow == 0 {
			time.Sleep(time.Second)
		}
	}))
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func post(args []string) {
	fs := flag.NewFlagSet("post", flag.ExitOnError)
	url := fs.String("url", "", "handler URL")
	n := fs.Int("n", 20000, "requests to send")
	c := fs.Int("c", 64, "requests in flight at once")
	size := fs.Int("size", 1100, "body size in bytes")
	secret := fs.String("secret", "whsec_plainclient", "signing secret")
	timeout := fs.Duration("timeout", 30*time.Second, "client timeout")
	fs.Parse(args)
	body := bytes.Repeat([]byte("x"), *size)
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: *c, MaxIdleConnsPerHost: *c, DisableCompression: true}, Timeout: *timeout}
	start := time.Now()
	var failed atomic.Int64
	var wg sync.WaitGroup
	work := make(chan int)
	for range *c {
		wg.Go(func() {
			for range work {
				t := strconv.FormatInt(time.Now().Unix(), 10)
				m := hmac.New(sha256.New, []byte(*secret))
				m.Write([]byte(t + "."))
				m.Write(body)
				req, _ := http.NewRequest(http.MethodPost, *url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json; charset=utf-8")
				req.Header.Set("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
				req.Header.Set("Accept", "*/*; q=0.5, application/xml")
				req.Header.Set("Cache-Control", "no-cache")
				req.Header.Set("Stripe-Signature", "t="+t+",v1="+hex.EncodeToString(m.Sum(nil)))
				resp, err := client.Do(req)
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	for i := range *n {
		work <- i
	}
	close(work)
	wg.Wait()
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	fmt.Printf("%d requests (%d failed) in %.2f s wall, %.2f s CPU\n", *n, failed.Load(), time.Since(start).Seconds(), cpu.Seconds())
}
