package search

import (
	"regexp"
	"sync"
)

// regexpCache keeps compiled patterns: SQLite calls the REGEXP function once
// per row with the same pattern.
var regexpCache sync.Map // string -> *regexp.Regexp

const regexpCacheMax = 256

var regexpCacheLen struct {
	sync.Mutex
	n int
}

// Regexp reports whether text matches pattern (Go RE2 syntax). Its
// signature is SQLite's regexp(pattern, text): register it as the scalar
// function "regexp" on SQLite connections so that `x REGEXP ?` works.
func Regexp(pattern, text string) (bool, error) {
	if re, ok := regexpCache.Load(pattern); ok {
		return re.(*regexp.Regexp).MatchString(text), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return false, err
	}
	regexpCacheLen.Lock()
	if regexpCacheLen.n < regexpCacheMax {
		if _, loaded := regexpCache.LoadOrStore(pattern, re); !loaded {
			regexpCacheLen.n++
		}
	}
	regexpCacheLen.Unlock()
	return re.MatchString(text), nil
}
