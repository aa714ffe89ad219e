package writeback

import "github.com/tmsproject/tms/services/translation/formats"

// Header holds the fields Weblate sets on every save of a file with a
// header (Translation.update_units, then BasePoFormat.update_header).
type Header = formats.Header

// UpdateHeader sets the fields of h on f when its format has a header.
func UpdateHeader(f formats.File, h Header) {
	if hf, ok := f.(formats.HeaderFile); ok {
		hf.UpdateHeader(h)
	}
}
