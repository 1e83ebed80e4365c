package simulator

// plural picks the word for n things: one when n is 1, many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
