package textstat

import (
	"fmt"
	"strings"
)

// PluralSeparator joins plural forms in stored strings (Weblate's PLURAL_SEPARATOR).
const PluralSeparator = "\x1e\x1e"

// hashKey is the SipHash key Weblate uses for every string hash.
var hashKey = [16]byte([]byte("Weblate Sip Hash"))

// Hash is Weblate's calculate_hash: SipHash-2-4 of the UTF-8 concatenation of
// parts (no separator), shifted from unsigned to signed by subtracting 2^63.
func Hash(parts ...string) int64 {
	sum := SipHash24(hashKey, []byte(strings.Join(parts, "")))
	// sum - 2^63 in two's complement is flipping the top bit.
	return int64(sum ^ (1 << 63)) //nolint:gosec // G115: a reinterpretation of the 64 bits is the point
}

// JoinPlural joins plural forms with PluralSeparator (Weblate's join_plural).
func JoinPlural(forms []string) string { return strings.Join(forms, PluralSeparator) }

// IDHash is the id_hash of a unit of a bilingual file (PO and the like):
// Hash(source forms joined with PluralSeparator, context). For PO the context
// is msgctxt and the forms are msgid and msgid_plural.
func IDHash(source []string, context string) int64 {
	return Hash(JoinPlural(source), context)
}

// ContentHash is a unit's content_hash: Hash(source forms joined, context),
// for bilingual and monolingual files alike (Weblate's Unit.content_hash).
// For bilingual units it equals IDHash.
func ContentHash(source []string, context string) int64 {
	return Hash(JoinPlural(source), context)
}

// Checksum is Weblate's hash_to_checksum: the unsigned hex form of an
// id_hash, 16 lower-case digits, as used in "?checksum=" URLs.
func Checksum(idHash int64) string {
	return fmt.Sprintf("%016x", uint64(idHash)^(1<<63)) //nolint:gosec // G115: a reinterpretation of the 64 bits is the point
}
