package translation_test

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/services/translation"
	"github.com/tmsproject/tms/services/translation/server"
)

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

// TestUploadReadWholeBound: a file that would be parsed whole (here a PO
// file uploaded with method=replace) above UploadLimits.ReadWhole is
// refused before it is read, naming the bound; a streamed method takes
// the same file.
func TestUploadReadWholeBound(t *testing.T) {
	e, _ := setupRepoWith(t, func(c *translation.Config) {
		c.Upload = server.UploadLimits{ReadWhole: 1 << 20, StreamAbove: 1}
	}, nil)
	big := uploadPO + strings.Repeat("# padding\n", 120_000) // over 1 MiB
	_, err := e.upload(t, "pt_BR", "replace", "", "", big)
	fe := errs.FromStatus(err)
	if fe.Kind != errs.InvalidArgument || len(fe.Fields) != 1 || fe.Fields[0].Code != "max_size" || !strings.Contains(fe.Fields[0].Description, "above 1 MiB") {
		t.Fatalf("replace above the bound: %v", err)
	}
	if _, err = e.upload(t, "pt_BR", "translate", "", "", big); err != nil {
		t.Errorf("a streamed method refused the file: %v", err)
	}
}
