package demo

import (
	"context"
	"errors"
	"testing"
)

func TestCheckListen(t *testing.T) {
	for _, tc := range []struct {
		addr        string
		allowRemote bool
		want        error
	}{
		{"127.0.0.1:8080", false, nil},
		{"localhost:0", false, nil},
		{"[::1]:8080", false, nil},
		{"127.0.0.1", false, ErrNotHostPort},
		{"127.0.0.1:", false, ErrNotHostPort},
		{":8080", false, ErrNotLoopback},
		{":8080", true, nil},
		{"192.0.2.10:8080", false, ErrNotLoopback},
		{"192.0.2.10:8080", true, nil},
	} {
		if err := CheckListen(context.Background(), tc.addr, tc.allowRemote); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("CheckListen(%q, %v) = %v, want %v", tc.addr, tc.allowRemote, err, tc.want)
		}
	}
}
