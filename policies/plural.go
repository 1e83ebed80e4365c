package policies

import "strconv"

// Plural picks the word for n things: one when n is 1, many otherwise. It
// is the one rule every sentence the project writes follows for a count.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Counted says n of a thing: "1 request", "3 requests".
func Counted(n int, one, many string) string { return strconv.Itoa(n) + " " + Plural(n, one, many) }
