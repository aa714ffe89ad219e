package token

import (
	"regexp"
	"testing"
)

func TestNewUser(t *testing.T) {
	shape := regexp.MustCompile(`^wlu_[A-Za-z0-9]{36}$`)
	seen := map[string]bool{}
	for range 200 {
		tok, err := NewUser()
		if err != nil {
			t.Fatal(err)
		}
		if !shape.MatchString(tok) || seen[tok] {
			t.Fatalf("bad or repeated token %q", tok)
		}
		seen[tok] = true
	}
}

func TestHash(t *testing.T) {
	// sha256("abc")
	if got := Hash("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("hash %s", got)
	}
	if Hash("wlu_a") == Hash("wlu_b") {
		t.Fatal("collision")
	}
}
