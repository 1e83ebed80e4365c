package report

import "fmt"

// plural picks the word for n things: one when n is 1, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// counted says n of a thing: "1 request", "3 requests".
func counted(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }
