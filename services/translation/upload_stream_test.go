package translation_test

import "testing"

// streamUploads makes every service of a test read uploads of a format
// that streams in pieces, whatever their size (TestUploadsStreamed).
var streamUploads bool

// TestUploadsStreamed runs the upload tests again with every file of a
// format that streams (PO, JSON) read in pieces, as a file above 8 MiB
// is: the answers and the strings must be those of a file read whole.
func TestUploadsStreamed(t *testing.T) {
	streamUploads = true
	t.Cleanup(func() { streamUploads = false })
	for name, test := range map[string]func(*testing.T){
		"methods": TestUploadMethods, "conflicts": TestUploadConflicts, "suggest add replace": TestUploadSuggestAddReplace,
		"errors": TestUploadErrors, "refusals": TestUploadMethodRefusals, "failing midway": TestUploadFailingMidwayChangesNothing,
		"limits": TestUploadLimits, "every format": TestUploadMethodsEveryFormat, "streams": TestFileStreams,
	} {
		t.Run(name, test)
	}
}
