package main

import "testing"

func TestListensEverywhere(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
	}{
		{":8080", true},
		{"0.0.0.0:8080", true},
		{"[::]:8080", true},
		{"127.0.0.1:8080", false},
		{"[::1]:8080", false},
		{"localhost:8080", false},
		{"example.org:80", false},
		{"no port", false},
	} {
		if got := listensEverywhere(c.addr); got != c.want {
			t.Errorf("listensEverywhere(%q) = %v, want %v", c.addr, got, c.want)
		}
	}
}
