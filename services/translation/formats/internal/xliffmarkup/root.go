package xliffmarkup

import (
	"bytes"
	"errors"

	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// ErrNotXLIFF is Root's answer for input that is not an XML document
// with an <xliff> root element.
var ErrNotXLIFF = errors.New("the file is not an XLIFF <xliff> document")

// Root parses an XLIFF file of either version (after a byte order mark,
// which stays part of the input's offsets) and returns its <xliff>
// element; the version is the caller's to check.
func Root(data []byte) (*xmltree.Node, error) {
	off := 0
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		off = 3
	}
	top, err := xmltree.Parse(data[off:], off, false)
	if errors.Is(err, xmltree.ErrNotDocument) {
		return nil, ErrNotXLIFF
	}
	if err != nil {
		return nil, err
	}
	root := xmltree.Root(top)
	if xmltree.Local(root.Name) != "xliff" {
		return nil, ErrNotXLIFF
	}
	return root, nil
}
