package po

import "sort"

// This file finds line break opportunities the way GNU libunistring 1.3
// does (u8_possible_linebreaks, Unicode Standard Annex #14 for Unicode 16.0
// with libunistring's tailorings), because GNU gettext's msgmerge and msgcat,
// which wrote the PO files the reference service keeps, wrap with it.

// Line breaking classes. The first 41 index the pair table; the others are
// resolved before the table is consulted. Some UAX #14 classes are split the
// way libunistring splits them: OP and CP by East Asian width, QU into other,
// initial (Pi) and final (Pf) quotes, AL into U+25CC and the rest, ID into
// unassigned pictographs and the rest.
const (
	lbWJ = iota
	lbGL
	lbB2
	lbBA
	lbBB
	lbHY
	lbCL
	lbCP1
	lbCP2
	lbEX
	lbIN
	lbNS
	lbOP1
	lbOP2
	lbQU1
	lbQU2
	lbQU3
	lbIS
	lbNU
	lbPO
	lbPR
	lbSY
	lbAL1
	lbAL2
	lbH2
	lbH3
	lbID1
	lbID2
	lbJL
	lbJV
	lbJT
	lbHL
	lbAP
	lbAK
	lbAS
	lbVI
	lbVF
	lbRI
	lbZWJ
	lbEB
	lbEM
	lbBK
	lbCR
	lbLF
	lbCM
	lbZW
	lbSP
	lbCB
	lbAI
	lbSA
	lbXX
	lbTableSize = lbEM + 1
	// Run-time only: a virama after a Brahmic letter, and a Hebrew letter
	// followed by a hyphen or break-after character.
	lbAKLSVI = 100
	lbHLBA   = 101
)

// Break actions per position, as in libunistring's unilbrk.h.
const (
	breakUndefined = iota
	breakProhibited
	breakPossible
	breakMandatory
)

// Pair table actions.
const (
	pairDirect   = iota + 1 // break allowed
	pairIndirect            // break allowed only after spaces
	pairNever               // no break, even after spaces
)

type lbRange struct {
	lo, hi rune
	v      uint8
}

func lookupRange(table []lbRange, r rune, missing uint8) uint8 {
	i := sort.Search(len(table), func(i int) bool { return table[i].hi >= r })
	if i < len(table) && table[i].lo <= r {
		return table[i].v
	}
	return missing
}

// lineBreakProp returns the class and the East Asian (wide, full-width or
// half-width) bit of r.
func lineBreakProp(r rune) (class int, eastAsian bool) {
	v := lookupRange(lineBreakRanges, r, lbXX<<1)
	return int(v >> 1), v&1 == 1
}

// runeWidth is libunistring's uc_width in a UTF-8 locale: 0 for combining,
// format and control characters, 2 for wide and full-width ones.
func runeWidth(r rune) int {
	if r >= 0x20 && r < 0x7f {
		return 1
	}
	return int(lookupRange(widthRanges, r, 1))
}

var pairTable = func() (t [lbTableSize][lbTableSize]uint8) {
	for b := range lbTableSize {
		for a := range lbTableSize {
			t[b][a] = pairAction(b, a)
		}
	}
	return t
}()

func in(c int, set ...int) bool {
	for _, s := range set {
		if c == s {
			return true
		}
	}
	return false
}

// pairAction is the pair table of UAX #14 (rules LB11 to LB30b) for a break
// between before and after, with spaces possibly between them.
func pairAction(before, after int) uint8 {
	alhl := []int{lbAL1, lbAL2, lbHL}
	id := []int{lbID1, lbID2, lbEB, lbEM}
	hangul := []int{lbJL, lbJV, lbJT, lbH2, lbH3}
	switch {
	// Rules that hold across spaces.
	case after == lbWJ, // LB11
		in(after, lbCL, lbCP1, lbCP2, lbEX, lbIS, lbSY), // LB13
		in(before, lbOP1, lbOP2),                        // LB14
		before == lbQU2,                                 // LB15a (resolved at run time)
		after == lbQU3,                                  // LB15b (resolved at run time)
		in(before, lbCL, lbCP1, lbCP2) && after == lbNS, // LB16
		before == lbB2 && after == lbB2:                 // LB17
		return pairNever
	// Rules for adjacent characters only.
	case before == lbWJ, before == lbGL, // LB11, LB12
		after == lbGL && !in(before, lbBA, lbHY), // LB12a
		after == lbQU1, before == lbQU1,          // LB19
		in(after, lbBA, lbHY, lbNS), before == lbBB, // LB21
		before == lbSY && after == lbHL,                                            // LB21b
		after == lbIN,                                                              // LB22
		in(before, alhl...) && after == lbNU, before == lbNU && in(after, alhl...), // LB23
		before == lbPR && in(after, id...), in(before, id...) && after == lbPO, // LB23a
		in(before, lbPR, lbPO) && in(after, alhl...), in(before, alhl...) && in(after, lbPR, lbPO), // LB24
		in(before, lbPR, lbPO, lbHY, lbIS) && after == lbNU, // LB25
		before == lbJL && in(after, lbJL, lbJV, lbH2, lbH3), // LB26
		in(before, lbJV, lbH2) && in(after, lbJV, lbJT),
		in(before, lbJT, lbH3) && after == lbJT,
		in(before, hangul...) && after == lbPO, before == lbPR && in(after, hangul...), // LB27
		in(before, alhl...) && in(after, alhl...),      // LB28
		before == lbAP && in(after, lbAK, lbAL2, lbAS), // LB28a
		in(before, lbAK, lbAL2, lbAS) && in(after, lbVF, lbVI),
		before == lbIS && in(after, alhl...),                   // LB29
		in(before, lbAL1, lbAL2, lbHL, lbNU) && after == lbOP1, // LB30
		before == lbCP1 && in(after, lbAL1, lbAL2, lbHL, lbNU),
		in(before, lbEB, lbID2) && after == lbEM: // LB30b
		return pairIndirect
	}
	return pairDirect
}

// possibleBreaks stores in p[i] whether a line may break before s[i]
// (breakPossible), must (breakMandatory) or may not (breakProhibited). It is
// libunistring's u8_possible_linebreaks: the pair table plus the rules that
// need more context (combining marks, spaces, quotes next to East Asian
// text, numbers, Brahmic syllables, regional indicators), in libunistring's
// order of precedence.
func possibleBreaks(s []rune, p []uint8) {
	lb := newBreakState()
	for i, r := range s {
		prop, ea := lineBreakProp(r)
		next, nextEA := lbBK, false
		next2 := lbBK
		if i+1 < len(s) {
			next, nextEA = lineBreakProp(s[i+1])
		}
		if i+2 < len(s) {
			next2, _ = lineBreakProp(s[i+2])
		}
		p[i] = lb.step(r, prop, ea, next, nextEA, next2)
	}
}

// breakState is the state of the possibleBreaks loop.
type breakState struct {
	preceding  int  // class of the previous character
	prev       int  // class of the previous character, skipping CM and ZWJ
	prevEA     bool // East Asian bit of prev
	prev2EA    bool // East Asian bit of the character before prev
	prevHyphen bool // prev is a word-initial hyphen
	prevNus    bool // before prev: NU then only SY or IS
	last       int  // class of the last non-space character
	seenSpace  bool // a space follows the last non-space character
	riCount    int  // regional indicators just before
}

func newBreakState() *breakState {
	return &breakState{preceding: lbBK, prev: lbBK, last: lbBK}
}

func isQuote(c int) bool { return c == lbQU1 || c == lbQU2 || c == lbQU3 }

func (b *breakState) step(r rune, prop int, ea bool, next int, nextEA bool, next2 int) uint8 {
	nus := b.prev == lbNU || b.prevNus && (b.prev == lbSY || b.prev == lbIS)
	var action uint8
	if in(prop, lbBK, lbLF, lbCR) {
		action = breakMandatory
		b.last, b.seenSpace = lbBK, false
	} else {
		switch prop {
		case lbAI, lbSA, lbXX: // ambiguous outside CJK encodings; no dictionary for SA
			prop = lbAL1
		case lbCB:
			prop = lbID1
		}
		switch prop {
		case lbSP:
			action, b.seenSpace = breakProhibited, true // LB7
		case lbZW:
			action, b.last, b.seenSpace = breakProhibited, lbZW, false // LB7
		case lbCM, lbZWJ:
			action = b.combining()
		default:
			action = b.pair(r, prop, ea, next, nextEA, next2, nus)
			if prop == lbQU2 && !in(b.prev, lbBK, lbCR, lbLF, lbOP1, lbOP2, lbQU1, lbQU2, lbQU3, lbGL, lbSP, lbZW) {
				prop = lbQU1 // LB15a applies only after an opening context
			}
			b.last, b.seenSpace = prop, false
		}
	}
	// LB9: X (CM | ZWJ)* is treated as X.
	if !(in(prop, lbCM, lbZWJ) && !in(b.prev, lbBK, lbLF, lbCR, lbSP, lbZW)) {
		b.prevHyphen = (prop == lbHY || r == 0x2010) &&
			in(b.prev, lbBK, lbCR, lbLF, lbSP, lbZW, lbCB, lbGL)
		switch {
		case prop == lbVI && in(b.prev, lbAK, lbAL2, lbAS):
			b.prev = lbAKLSVI
		case b.prev == lbHL && (prop == lbHY || prop == lbBA && !ea):
			b.prev = lbHLBA
		default:
			b.prev = prop
		}
		b.prev2EA, b.prevEA, b.prevNus = b.prevEA, ea, nus
	}
	b.preceding = prop
	if prop == lbRI {
		b.riCount++
	} else {
		b.riCount = 0
	}
	return action
}

// combining handles a combining mark or zero width joiner (LB9, LB10).
func (b *breakState) combining() uint8 {
	switch {
	case b.last == lbBK:
		b.last, b.seenSpace = lbAL1, false
		return breakProhibited
	case b.last == lbZW || b.seenSpace && !in(b.last, lbOP1, lbOP2, lbQU2):
		b.last, b.seenSpace = lbAL1, false
		return breakPossible
	}
	return breakProhibited
}

func (b *breakState) pair(r rune, prop int, ea bool, next int, nextEA bool, next2 int, nus bool) uint8 {
	switch {
	case b.last == lbBK:
		return breakProhibited
	case b.last == lbZW: // LB8
		return breakPossible
	case b.preceding == lbZWJ: // LB8a
		return breakProhibited
	case prop == lbIS && b.prev == lbSP && next == lbNU: // LB15c
		return breakPossible
	case isQuote(prop) && (!b.prevEA || !nextEA) && b.prev != lbSP,
		isQuote(b.prev) && (!b.prev2EA || !ea): // LB19a
		return breakProhibited
	case b.prevHyphen && (prop == lbAL1 || prop == lbAL2): // LB20a
		return breakProhibited
	case b.prev == lbHLBA && prop != lbHL: // LB21a
		return breakProhibited
	case b.prevNus && in(b.prev, lbCL, lbCP1, lbCP2) && in(prop, lbPO, lbPR),
		nus && in(prop, lbPO, lbPR, lbNU): // LB25
		return breakProhibited
	case in(b.prev, lbPO, lbPR) && in(prop, lbOP1, lbOP2) &&
		(next == lbNU || next == lbIS && next2 == lbNU): // LB25
		return breakProhibited
	case b.prev == lbAKLSVI && in(prop, lbAK, lbAL2), // LB28a
		next == lbVF && in(prop, lbAK, lbAL2, lbAS) && in(b.prev, lbAK, lbAL2, lbAS):
		return breakProhibited
	case b.last == lbIS && r == '<':
		// libunistring breaks before an HTML tag after a full stop.
		return breakPossible
	case b.last == lbRI && prop == lbRI: // LB30a
		if b.seenSpace || b.riCount%2 == 0 {
			return breakPossible
		}
		return breakProhibited
	}
	this := prop
	if prop == lbQU3 && !in(next, lbBK, lbCR, lbLF, lbSP, lbGL, lbWJ, lbCL, lbQU1, lbQU2, lbQU3,
		lbCP1, lbCP2, lbEX, lbIS, lbSY, lbZW) {
		this = lbQU1 // LB15b applies only before a closing context
	}
	switch pairTable[b.last][this] {
	case pairDirect:
		return breakPossible
	case pairIndirect:
		if b.seenSpace {
			return breakPossible
		}
	}
	return breakProhibited
}
