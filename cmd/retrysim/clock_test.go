package main

import "time"

// timeNow is the wall clock test handlers check signature timestamps with.
func timeNow() time.Time { return time.Now() }
