package capture

import "fmt"

// counted says n of a thing in an error: "1 word", "3 words".
func counted(n int64, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
