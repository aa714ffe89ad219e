package applestrings

import (
	"fmt"

	"github.com/tmsproject/tms/services/translation/formats/internal/textenc"
)

// encoding is how a file's bytes hold its text, kept so that a file is
// written back as it was read.
type encoding = textenc.Encoding

const utf16LEBOM = textenc.UTF16LEBOM

// decodeText reads the text of a file. A byte order mark names the
// encoding; without one, text that is valid UTF-8 without NUL bytes is
// UTF-8 and, for the UTF-16 format, anything else little-endian UTF-16
// (as translate-toolkit guesses it).
func decodeText(data []byte, utf16Format bool) (string, encoding, error) {
	s, e, err := textenc.Decode(data, utf16Format, true)
	if err != nil {
		return "", e, fmt.Errorf("strings: %w", err)
	}
	return s, e, nil
}

// encodeText writes text in the encoding e.
func encodeText(s string, e encoding) []byte { return textenc.Encode(s, e) }
