package applestrings

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func value(_, _ int, ctx string) string { return "é\"\n\t\\ \r\U0001F600" + ctx }

func FuzzStrings(f *testing.F) {
	formattest.Fuzz(f, UTF16, "de", "testdata/*.strings", value, "\"a\" /* c */ = b;", "\xfe\xff\x00a\x00=\x00b\x00;")
}

func FuzzStringsUTF8(f *testing.F) {
	formattest.Fuzz(f, UTF8, "de", "testdata/*.strings", value, "// c\nk = \"v\\U00e9\";\n")
}
