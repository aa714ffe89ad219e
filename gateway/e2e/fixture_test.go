package e2e

import (
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

const potHeader = `msgid ""
msgstr ""
"Project-Id-Version: demo 1.0\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
`

// makeOrigin creates a bare git repository with a small PO component
// (po/demo.pot, po/de.po) and returns its path.
func makeOrigin(t *testing.T) string {
	t.Helper()
	bare, err := origin.Create(t.TempDir(), map[string][]byte{
		"po/demo.pot": []byte(potHeader + "\nmsgid \"Hello\"\nmsgstr \"\"\n\nmsgid \"Bye\"\nmsgstr \"\"\n"),
		"po/de.po":    []byte(potHeader + "\nmsgid \"Hello\"\nmsgstr \"Hallo\"\n\nmsgid \"Bye\"\nmsgstr \"\"\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return bare
}
